// Package secrets detects credentials in text.
//
// It is used by the linter on every memory record (a secret written into a
// record would be committed and pushed, i.e. leaked) and to redact secrets
// from agent session logs before they are sent to a model.
//
// Detection is pure and cheap. Find makes five passes with bytes.IndexByte
// over anchor bytes ('-', '_', ':', 'A', 'J'); only at an anchor does it
// look at the surrounding bytes, with hand-written matchers (no regular
// expressions, no package state but read-only tables, no allocation unless
// something is found). Ordinary Markdown is scanned at about 1 GB/s on one
// core. The work per anchor is bounded by the longest token, so even
// adversarial input is scanned in linear time.
//
// Detected kinds (the Kind of a Match; stable identifiers):
//
//	private-key-block      -----BEGIN ... PRIVATE KEY-----  ...  -----END ...-----
//	aws-access-key-id      AKIA/ASIA/ABIA/ACCA + 16 [A-Z0-9], on word boundaries
//	aws-secret-access-key  40 base64 chars after an aws_secret_access_key label
//	github-token           gh[pousr]_..., github_pat_...
//	gitlab-token           glpat-...
//	slack-token            xox[abposr]-..., xapp-...
//	slack-webhook          https://hooks.slack.com/services/T.../B.../...
//	anthropic-api-key      sk-ant-<letters><2 digits>-<80+ chars> (api03, admin01, oat01, ...)
//	openai-api-key         sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...
//	google-api-key         AIza + 35 chars
//	stripe-secret-key      sk_live_..., sk_test_..., rk_live_..., rk_test_...
//	npm-token              npm_ + 36 chars
//	pypi-token             pypi-AgEIcHlwaS5vcmc...
//	jwt                    eyJ....eyJ....signature
//	url-password           the password of scheme://user:password@host
//
// Rules that keep false positives down:
//
//   - Token prefixes must start at a word boundary ("task-list", "risk-free"
//     and "sk-learn" never match) and the random part must have the expected
//     length and alphabet; most kinds also require a mix of character classes
//     (upper case, lower case, digits), which ordinary identifiers lack.
//   - Placeholders are skipped: a random part made of one repeated character,
//     or containing "example" (any case), "xxxx", "your_", "your-", "<", ">",
//     "REDACTED", or a run like "1234567890" / "abcdefghij".
//   - A PUBLIC KEY or CERTIFICATE block is not reported. A PRIVATE KEY header
//     is reported only if key material follows it (a run of at least 40
//     base64 characters within the first 1 KiB of the body): a sentence that
//     merely mentions the header is not a secret.
//   - A URL password is skipped when it is a placeholder (password, pass,
//     ***, <...>, ${...}, $VAR, {{...}}, %s, foo:bar, ...), shorter than 4
//     bytes, equal to the user name (well-known defaults such as
//     guest:guest, postgres:postgres), or when the host is an example
//     domain (example.com, sub.example.org, ...).
//
// A Match covers the secret itself: the whole token, the whole private key
// block (to the end of the input if the END line is missing), the value
// after an AWS secret key label, or just the password of a URL. Find returns
// matches ordered by Start and non-overlapping; when two candidates overlap
// they are merged into one match that covers both, so that Redact never
// leaves part of a detected secret behind. Redact rescans its output (see
// Redact), so Find(Redact(text)) is always empty.
//
// Limitations: only the formats above are known; generic high-entropy
// strings, passwords outside URLs and secrets split across lines (other
// than private key blocks) are not detected.
package secrets
