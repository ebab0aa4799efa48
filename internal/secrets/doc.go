// Package secrets detects credentials in text.
//
// It is used by the linter on every memory record (a secret written into a
// record would be committed and pushed, i.e. leaked) and to redact secrets
// from agent session logs before they are sent to a model.
//
// Detection is pure and cheap. Find makes eight passes with
// bytes.IndexByte over anchor bytes ('-', '_', '.', '~', ':', '=', 'A',
// 'J'); only at an anchor does it look at the surrounding bytes, with
// hand-written matchers (no regular expressions, no package state but
// read-only tables, no allocation unless something is found). Ordinary
// Markdown is scanned at about 1 GB/s on one core. The work per anchor is
// bounded by the longest token or value (1 KiB), so even adversarial input
// is scanned in linear time.
//
// Three families of rules:
//
//   - Token formats that name their issuer: a private-key block, AWS key
//     IDs (AKIA…), GitHub (ghp_, github_pat_…), GitLab (glpat-, gldt-,
//     glrt-, glptt-…), Slack (xoxb-…, webhooks), Anthropic, OpenAI,
//     Google (AIza…, GOCSPX-, ya29.), Stripe, npm, PyPI, JSON Web Tokens,
//     Hugging Face (hf_, api_org_), SendGrid (SG.x.y), Azure AD client
//     secrets (…8Q~…), age, Artifactory, Amazon Bedrock, DigitalOcean,
//     Doppler, Duffel, Dynatrace, Flutterwave, Frame.io, Grafana,
//     Terraform Cloud, Heroku, Infracost, Linear, Mailgun, Mapbox, New
//     Relic, Notion, Octopus Deploy, Perplexity, PlanetScale, Postman,
//     Prefect, Pulumi, ReadMe, RubyGems, Scalingo, Sentry, SettleMint,
//     Shippo, Shopify, Sourcegraph, Square, Vault, Fly.io, Clojars,
//     1Password and Cloudflare Origin CA keys. The shapes follow public
//     secret-scanner rule sets (gitleaks' among them) and the issuers'
//     documentation; Kinds lists the stable ids.
//   - Passwords in URLs: the password of scheme://user:password@host.
//   - Keyword-anchored assignments: a key named like a credential
//     (password, passwd, pwd, passphrase, *pass; *token; *secret;
//     api_key, access_key, private_key, AccountKey, X-Api-Key and other
//     *key settings of that kind; credential(s), creds, auth;
//     Authorization), an assignment (=, :, :=, =>, JSON's "key": ), and a
//     value that looks random: for a password at least 8 bytes of letters
//     with digits or symbols; for the others at least 12 bytes mixing
//     letters and digits in a run of 10, with at least 3 bits of entropy a
//     byte (or a UUID). An Authorization header's scheme (Bearer, Basic,
//     Token) is skipped. Only the value is the match. In a query string
//     (?token=…&) the value ends at & or #.
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
//   - An assigned value is skipped when it is a placeholder as above, a
//     reference ($VAR, ${VAR}, %s, {{ … }}, […], ***, …), a word such as
//     null, true, changeme, fake, dummy, sample, or one naming a password,
//     secret or token, or one that repeats its key (encryptionKey:
//     encryptionKey1024), or code: a call (getpass()), an index
//     (os.Args[4]), a dotted name (process.env.TOKEN,
//     config.apiKey). Keys such as max_tokens, csrf_token, next_page_token,
//     password_min_length or primary_key are not credential keys.
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
// after an AWS secret key label or a credential key, or just the password
// of a URL. Find returns matches ordered by Start and non-overlapping; when
// two candidates overlap they are merged into one match that covers both,
// with the kind of the most specific (a GitHub token assigned to
// GH_TOKEN is a GitHub token), so that Redact never leaves part of a
// detected secret behind. Redact rescans its output (see Redact), so
// Find(Redact(text)) is always empty.
//
// Limitations: only the formats above are known; a high-entropy string
// with no known prefix and no credential-like key before it is not
// reported, nor is a secret split across lines (other than private key
// blocks). The linter also scans frontmatter values as YAML reads them and
// the body as Markdown shows it, which catches a token split by a YAML
// line continuation or an escape.
package secrets
