package secrets

import (
	"bytes"
	"strings"
	"testing"
)

// Test tokens are assembled at run time from innocuous parts, so that this
// file contains no literal that a secret scanner would flag.

const (
	alnum  = "aZ3kQ9mB2xT7vW5rP8nL4cY6hJ1dF0gS"
	alnum2 = "Hq7Ue2Np5Ks9Vb3Gt8Rw4Yc6Mz1Lf0Dj"
	updig  = "7Q2WZ5R3TN6V4YK2PH5M3JD7XB6LC4GF"
)

// mix returns a deterministic n-character string mixing upper
// case, lower case and digits, varying with seed.
func mix(n, seed int) string {
	return gen(n, seed, alnum+alnum2)
}

// upd returns n characters of [A-Z0-9].
func upd(n, seed int) string { return gen(n, seed, updig) }

func gen(n, seed int, alphabet string) string {
	var b strings.Builder
	x := uint32(seed*2654435761 + 12345)
	for range n {
		x = x*1664525 + 1013904223
		b.WriteByte(alphabet[(x>>16)%uint32(len(alphabet))])
	}
	return b.String()
}

var (
	tokGitHub     = "gh" + "p_" + mix(36, 1)
	tokGitHubS    = "gh" + "s_" + mix(36, 2)
	tokGitHubPAT  = "github" + "_pat_" + mix(22, 3) + "_" + mix(59, 4)
	tokGitLab     = "gl" + "pat-" + mix(20, 5)
	tokSlack      = "xo" + "xb-" + "2371946502817-4429031857362-" + mix(24, 7)
	tokWebhook    = "https://hooks." + "slack.com/services/" + "T" + upd(8, 8) + "/B" + upd(10, 9) + "/" + mix(24, 10)
	tokAnthropic  = "sk-" + "ant-" + "api03-" + mix(93, 11) + "AA"
	tokOpenAI     = "sk-" + "proj-" + mix(48, 12) + "_" + mix(40, 13)
	tokOpenAIOld  = "sk-" + mix(20, 14) + "T3Blbk" + "FJ" + mix(20, 15)
	tokGoogle     = "AI" + "za" + "Sy" + mix(33, 16)
	tokStripe     = "sk" + "_live_" + mix(24, 17)
	tokStripeRK   = "rk" + "_test_" + mix(99, 18)
	tokNPM        = "np" + "m_" + mix(36, 19)
	tokPyPI       = "py" + "pi-" + "AgEIcHlwaS5vcmc" + mix(70, 20)
	tokJWT        = "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "ey" + "J" + mix(40, 21) + "." + mix(43, 22)
	tokAWSID      = "AK" + "IA" + upd(16, 23)
	tokAWSIDSTS   = "AS" + "IA" + upd(16, 24)
	tokAWSSecret  = mix(18, 25) + "/" + mix(10, 26) + "+" + mix(10, 27)
	tokURLPass    = mix(14, 28) + "!"
	keyBegin      = "-----BEGIN " + "RSA PRIV" + "ATE KEY-----"
	keyEnd        = "-----END " + "RSA PRIV" + "ATE KEY-----"
	keyBody       = gen(64, 29, alnum+"+/") + "\n" + gen(64, 30, alnum+"+/") + "\n" + gen(20, 31, alnum) + "=="
	tokPrivateKey = keyBegin + "\n" + keyBody + "\n" + keyEnd
	tokOpenSSHKey = "-----BEGIN " + "OPENSSH PRIV" + "ATE KEY-----\n" + "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + "\n" + "-----END " + "OPENSSH PRIV" + "ATE KEY-----"
	tokPGPKey     = "-----BEGIN " + "PGP PRIV" + "ATE KEY BLOCK-----\n\n" + keyBody + "\n-----END PGP PRIV" + "ATE KEY BLOCK-----"
)

type want struct {
	kind   string
	secret string // text[Start:End]; must occur once in the input
}

func TestFind(t *testing.T) {
	awsExample := "AKIA" + "IOSFODNN7" + "EXAMPLE"
	pubKey := "-----BEGIN PUBLIC KEY-----\n" + keyBody + "\n-----END PUBLIC KEY-----"
	cert := "-----BEGIN CERTIFICATE-----\n" + keyBody + "\n-----END CERTIFICATE-----"
	tests := []struct {
		name string
		in   string
		want []want
	}{
		// Positive cases, one or more per kind.
		{"private key", "key:\n" + tokPrivateKey + "\ndone", []want{{KindPrivateKey, tokPrivateKey}}},
		{"openssh key", tokOpenSSHKey, []want{{KindPrivateKey, tokOpenSSHKey}}},
		{"pgp key", "x " + tokPGPKey + " y", []want{{KindPrivateKey, tokPGPKey}}},
		{"private key in JSON string", `{"key":"` + keyBegin + `\n` + strings.ReplaceAll(keyBody, "\n", `\n`) + `\n` + keyEnd + `\n"}`,
			[]want{{KindPrivateKey, keyBegin + `\n` + strings.ReplaceAll(keyBody, "\n", `\n`) + `\n` + keyEnd}}},
		{"aws key id", "id=" + tokAWSID + ";", []want{{KindAWSAccessKeyID, tokAWSID}}},
		{"aws sts key id", "(" + tokAWSIDSTS + ")", []want{{KindAWSAccessKeyID, tokAWSIDSTS}}},
		{"aws secret ini", "aws_secret_access_key = " + tokAWSSecret + "\n", []want{{KindAWSSecretKey, tokAWSSecret}}},
		{"aws secret env", "export AWS_SECRET_ACCESS_KEY=" + tokAWSSecret, []want{{KindAWSSecretKey, tokAWSSecret}}},
		{"aws secret json", `{"SecretAccessKey": "` + tokAWSSecret + `"}`, []want{{KindAWSSecretKey, tokAWSSecret}}},
		{"aws secret yaml kebab", "aws-secret-access-key: '" + tokAWSSecret + "'", []want{{KindAWSSecretKey, tokAWSSecret}}},
		{"aws secret key short label", `AWS_SECRET_KEY: "` + tokAWSSecret + `"`, []want{{KindAWSSecretKey, tokAWSSecret}}},
		{"github classic", "token " + tokGitHub + ".", []want{{KindGitHubToken, tokGitHub}}},
		{"github server", "`" + tokGitHubS + "`", []want{{KindGitHubToken, tokGitHubS}}},
		{"github fine-grained", "GH_TOKEN=" + tokGitHubPAT, []want{{KindGitHubToken, tokGitHubPAT}}},
		{"gitlab", "use " + tokGitLab + " here", []want{{KindGitLabToken, tokGitLab}}},
		{"slack", "SLACK_BOT_TOKEN=" + tokSlack, []want{{KindSlackToken, tokSlack}}},
		{"slack webhook", "post to " + tokWebhook + " now", []want{{KindSlackWebhook, tokWebhook}}},
		{"anthropic", "ANTHROPIC_API_KEY=" + tokAnthropic + "\n", []want{{KindAnthropicAPIKey, tokAnthropic}}},
		{"openai project", `OPENAI_API_KEY="` + tokOpenAI + `"`, []want{{KindOpenAIAPIKey, tokOpenAI}}},
		{"openai legacy", tokOpenAIOld, []want{{KindOpenAIAPIKey, tokOpenAIOld}}},
		{"google", "?key=" + tokGoogle + "&q=1", []want{{KindGoogleAPIKey, tokGoogle}}},
		{"stripe live", "stripe " + tokStripe, []want{{KindStripeKey, tokStripe}}},
		{"stripe restricted test", tokStripeRK + "\n", []want{{KindStripeKey, tokStripeRK}}},
		{"npm", "//registry.npmjs.org/:_authToken=" + tokNPM, []want{{KindNPMToken, tokNPM}}},
		{"pypi", "password = " + tokPyPI, []want{{KindPyPIToken, tokPyPI}}},
		{"jwt", "Authorization: Bearer " + tokJWT, []want{{KindJWT, tokJWT}}},
		{"url password", "DATABASE_URL=postgres://app:" + tokURLPass + "@db.internal:5432/app", []want{{KindURLPassword, tokURLPass}}},
		{"url password redis empty user", "redis://:" + tokURLPass + "@cache:6379", []want{{KindURLPassword, tokURLPass}}},
		{"url password encoded", "https://bob:p%40ss%3Aw0rd@git.corp.net/", []want{{KindURLPassword, "p%40ss%3Aw0rd"}}},

		// Near misses, one or more per kind.
		{"public key block", pubKey, nil},
		{"certificate block", cert, nil},
		{"private key header mentioned in prose", "a file starting with `-----BEGIN " + "OPENSSH PRIV" + "ATE KEY-----` is a key; never commit it.", nil},
		{"private key placeholder body", keyBegin + "\n...\n" + keyEnd, nil},
		{"not a private key label", "-----BEGIN NONPRIV" + "ATE KEY-----\n" + keyBody, nil},
		{"aws doc example", "id " + awsExample, nil},
		{"aws id too short", "AKIA" + upd(15, 40), nil},
		{"aws id too long", "AKIA" + upd(17, 41), nil},
		{"aws id inside word", "X" + tokAWSID, nil},
		{"aws id placeholder", "AKIA" + strings.Repeat("X", 16), nil},
		{"aws secret without label", "value " + tokAWSSecret, nil},
		{"aws secret example", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY", nil},
		// Not an AWS secret key (41 characters), but a random value of a
		// secret-named key all the same.
		{"aws secret 41 chars", "aws_secret_access_key=" + tokAWSSecret + "x", []want{{KindSecretValue, tokAWSSecret + "x"}}},
		{"aws secret label continues", "aws_secret_access_key_file=" + tokAWSSecret, nil},
		{"github too short", "gh" + "p_" + mix(35, 42), nil},
		{"github wrong letter", "gh" + "x_" + mix(36, 43), nil},
		{"github inside word", "x" + tokGitHub, nil},
		{"github placeholder", "gh" + "p_" + strings.Repeat("x", 36), nil},
		{"github prefix alone", "tokens start with ghp_ or gho_ or github_pat_.", nil},
		{"github_pat identifier", "github_pat_expiration_warning_days_total", nil},
		{"gitlab too short", "gl" + "pat-" + mix(19, 44), nil},
		{"gitlab placeholder", "gl" + "pat-" + "your-token-goes-here-now", nil},
		{"slack no digits", "xo" + "xb-" + "token-goes-here-now", nil},
		{"slack wrong letter", "xo" + "xz-" + "123456789012-abc", nil},
		{"slack webhook placeholder", "https://hooks." + "slack.com/services/T00000000/B00000000/" + strings.Repeat("X", 24), nil},
		{"anthropic too short", "sk-" + "ant-api03-" + mix(79, 45), nil},
		{"openai lowercase only", "sk-" + "abcdefghjkmnpqrstuvwxyzabc", nil},
		{"openai hyphenated words", "pip install sk-Learn2-Compatible-Model-Zoo-v1", nil},
		{"openai too short", "sk-" + mix(19, 46), nil},
		{"openai inside word", "dask-" + mix(40, 47), nil},
		{"google too short", "AI" + "za" + mix(34, 48), nil},
		{"google too long", "AI" + "za" + mix(36, 49), nil},
		{"stripe publishable", "pk" + "_live_" + mix(24, 50), nil},
		{"stripe too short", "sk" + "_live_" + mix(23, 51), nil},
		{"stripe identifier", "sk_test_helper_function_name_here", nil},
		{"npm too short", "np" + "m_" + mix(35, 52), nil},
		{"npm config var", "npm_config_cache=/tmp/npm", nil},
		{"pypi too short", "py" + "pi-" + "AgEIcHlwaS5vcmc" + mix(49, 53), nil},
		{"jwt two parts", "eyJhbGciOiJIUzI1NiJ9." + "ey" + "J" + mix(20, 54), nil},
		{"jwt unsigned", "eyJhbGciOiJub25lIn0." + "ey" + "J" + mix(20, 55) + ".", nil},
		{"url placeholder password", "postgres://user:password@localhost/db", nil},
		{"url placeholder pass", "https://user:pass@host", nil},
		{"url placeholder xxx", "mysql://root:xxx@127.0.0.1", nil},
		{"url placeholder stars", "https://admin:****@host", nil},
		{"url placeholder angle", "https://<user>:<password>@host", nil},
		{"url placeholder template", "postgres://app:${DB_PASSWORD}@db/app", nil},
		{"url placeholder env", "postgres://app:$PGPASSWORD@db/app", nil},
		{"url placeholder go template", "amqp://u:{{.Password}}@mq", nil},
		{"url placeholder printf", `fmt.Sprintf("postgres://%s:%s@%s", u, p, h)`, nil},
		{"url placeholder printf index", `Sprintf("https://x-access-token:%[1]s@github.com/o/r.git", tok)`, nil},
		{"url placeholder foo bar", "http://foo:bar@proxy.local:3128", nil},
		{"url password too short", "redis://:a1z@cache:6379", nil},
		{"url example host", "new URL('https://abc:" + tokURLPass + "@sub.example.com:8080/p')", nil},
		{"url default creds", "amqp://guest:guest@localhost:5672/", nil},
		{"url port not password", "https://example.com:8443/path@v2", nil},
		{"scp style git url", "git@github.com:yoimem/git-yoimem.git and ssh://git@host/x", nil},

		// Ordinary prose and code.
		{"hyphenated prose", "Keep the task-list short; a risk-free desk-top sk-learn refactor is fine.", nil},
		{"identifiers", "func riskFree(ask_id int) { var task_list, sk_cache, ghp_count, AKIAfoo int; npm_install() }\nfn sk_learn_model() -> Result<(), AIzaError> {}", nil},
		{"sha hex", "commit 3f786850e387550fdab836ed7e6dc881de23001b sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", nil},
		{"uuid", "id 123e4567-e89b-12d3-a456-426614174000 and 550E8400-E29B-41D4-A716-446655440000", nil},
		{"base64 image", "![x](data:image/png;base64," + pngBase64 + ")", nil},
		{"markdown slugs", "See [tokens](#github-token-handling), [keys](#aws-secret-access-key) and #sk-ant-notes.\n- [ ] task: `x`\n", nil},
		{"urls", "Docs at https://docs.github.com/en/authentication and http://localhost:8080/x?y=1#z.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Find([]byte(tt.in))
			if len(got) != len(tt.want) {
				t.Fatalf("Find(%q) = %v, want %d matches %v", tt.in, got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				start := strings.Index(tt.in, w.secret)
				if start < 0 || strings.Count(tt.in, w.secret) != 1 {
					t.Fatalf("bad test: secret %q must occur once in input", w.secret)
				}
				wm := Match{Kind: w.kind, Start: start, End: start + len(w.secret)}
				if got[i] != wm {
					t.Errorf("match %d = %+v (%q), want %+v (%q)", i, got[i], tt.in[got[i].Start:got[i].End], wm, w.secret)
				}
			}
		})
	}
}

// pngBase64 is the start of a base64-encoded PNG image.
const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg" +
	"AAAAAEAAAABAKIAJAAAAAAA6gAAAZxMrQ4AACAASURBVHhe7Z0HeFRF18f/m94TSEJ6CCFAgNB7712qgICIgAr2" +
	"AIzaGzjbwK0A2ey77J3sIjDfvqcE+EAczHTZyjz/fHvfc87vnTt3Z+aeuyDJOTk5OTn5+fn5MAzDMAzDMAzD/k+" +
	"J4C+KQ2jvL0AAAAASUVORK5CYII="

func TestOffsetsExact(t *testing.T) {
	in := "x " + tokGitHub + " y"
	got := Find([]byte(in))
	want := []Match{{Kind: KindGitHubToken, Start: 2, End: 42}}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
	in = "pg://u:" + "s3cr3t-Pa55" + "@h"
	got = Find([]byte(in))
	want = []Match{{Kind: KindURLPassword, Start: 7, End: 18}}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
}

func TestMultipleInOrder(t *testing.T) {
	in := "a " + tokJWT + "\nb " + tokAWSID + " c https://u:" + tokURLPass + "@h d " + tokGitHub + " e " + tokPrivateKey + " f " + tokGoogle
	got := Find([]byte(in))
	kinds := []string{KindJWT, KindAWSAccessKeyID, KindURLPassword, KindGitHubToken, KindPrivateKey, KindGoogleAPIKey}
	secrets := []string{tokJWT, tokAWSID, tokURLPass, tokGitHub, tokPrivateKey, tokGoogle}
	if len(got) != len(kinds) {
		t.Fatalf("Find = %+v, want kinds %v", got, kinds)
	}
	for i, m := range got {
		if m.Kind != kinds[i] || in[m.Start:m.End] != secrets[i] {
			t.Errorf("match %d = %s %q, want %s %q", i, m.Kind, in[m.Start:m.End], kinds[i], secrets[i])
		}
	}
}

func TestUnterminatedPrivateKey(t *testing.T) {
	in := "notes\n" + keyBegin + "\n" + keyBody + "\n(truncated)\nmore text " + tokGitHub
	got := Find([]byte(in))
	want := []Match{{Kind: KindPrivateKey, Start: len("notes\n"), End: len(in)}}
	if len(got) != 1 || got[0] != want[0] {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
	if r := string(Redact([]byte(in))); r != "notes\n[REDACTED:private-key-block]" {
		t.Errorf("Redact = %q", r)
	}
}

func TestPrivateKeyLabels(t *testing.T) {
	for _, label := range []string{"", "RSA ", "DSA ", "EC ", "OPENSSH ", "ENCRYPTED ", "PGP "} {
		suffix := ""
		if label == "PGP " {
			suffix = " BLOCK"
		}
		block := "-----BEGIN " + label + "PRIV" + "ATE KEY" + suffix + "-----\n" + keyBody + "\n-----END " + label + "PRIV" + "ATE KEY" + suffix + "-----"
		in := "> " + block + "\n> after"
		got := Find([]byte(in))
		if len(got) != 1 || got[0] != (Match{Kind: KindPrivateKey, Start: 2, End: 2 + len(block)}) {
			t.Errorf("label %q: Find = %+v", label, got)
		}
	}
	// An END line without closing dashes ends the block at the end of line.
	in := keyBegin + "\n" + keyBody + "\n-----END RSA PRIV" + "ATE KEY\nafter"
	got := Find([]byte(in))
	if len(got) != 1 || in[got[0].Start:got[0].End] != strings.TrimSuffix(in, "\nafter") {
		t.Errorf("END without dashes: Find = %+v", got)
	}
	for _, label := range []string{"PUBLIC KEY", "RSA PUBLIC KEY", "PGP PUBLIC KEY BLOCK", "CERTIFICATE", "CERTIFICATE REQUEST", "OPENSSH PUBLIC KEY"} {
		in := "-----BEGIN " + label + "-----\n" + keyBody + "\n-----END " + label + "-----\n"
		if got := Find([]byte(in)); len(got) != 0 {
			t.Errorf("label %q: Find = %+v", label, got)
		}
	}
}

func TestOverlapMerged(t *testing.T) {
	// The password of the URL is a GitHub token: one match, the specific kind.
	in := "https://x-access-token:" + tokGitHub + "@github.com/o/r.git"
	got := Find([]byte(in))
	start := strings.Index(in, tokGitHub)
	want := Match{Kind: KindGitHubToken, Start: start, End: start + len(tokGitHub)}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
	// Partial overlap: the AWS secret value ends inside an OpenAI-style
	// token that starts at its "+sk"; the match grows to cover both, so
	// Redact leaves nothing of either behind.
	value := mix(37, 60) + "+sk"
	tail := "-" + mix(30, 61)
	in = "aws_secret_access_key=" + value + tail + " end"
	got = Find([]byte(in))
	start = len("aws_secret_access_key=")
	want = Match{Kind: KindAWSSecretKey, Start: start, End: start + len(value) + len(tail)}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
	if r := string(Redact([]byte(in))); r != "aws_secret_access_key=[REDACTED:aws-secret-access-key] end" {
		t.Errorf("Redact = %q", r)
	}
	// A token inside a private key block is part of the block.
	in = keyBegin + "\n" + keyBody + "\n" + tokAWSID + "\n" + keyEnd
	got = Find([]byte(in))
	if len(got) != 1 || got[0] != (Match{Kind: KindPrivateKey, Start: 0, End: len(in)}) {
		t.Fatalf("Find = %+v", got)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing to see here", "nothing to see here"},
		{"token " + tokGitHub + ".", "token [REDACTED:github-token]."},
		{"A=" + tokAWSID + "\naws_secret_access_key=" + tokAWSSecret + "\n",
			"A=[REDACTED:aws-access-key-id]\naws_secret_access_key=[REDACTED:aws-secret-access-key]\n"},
		{"postgres://app:" + tokURLPass + "@db:5432/x", "postgres://app:[REDACTED:url-password]@db:5432/x"},
		{tokSlack + " " + tokWebhook, "[REDACTED:slack-token] [REDACTED:slack-webhook]"},
		{"k:\n" + tokPrivateKey + "\nend", "k:\n[REDACTED:private-key-block]\nend"},
		// The AWS key ID is glued to the JWT and only becomes a match once
		// the JWT is replaced; Redact rescans.
		{tokAWSID + tokJWT, "[REDACTED:aws-access-key-id][REDACTED:jwt]"},
	}
	for _, tt := range tests {
		got := string(Redact([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if m := Find([]byte(got)); len(m) != 0 {
			t.Errorf("Find(Redact(%q)) = %v", tt.in, m)
		}
	}
}

func TestRedactCleanReturnsInput(t *testing.T) {
	in := []byte("plain *markdown* with a https://example.com/link and task-list")
	out := Redact(in)
	if &out[0] != &in[0] || len(out) != len(in) {
		t.Fatal("Redact of clean text must return the input slice")
	}
	if n := testing.AllocsPerRun(100, func() { Find(in) }); n != 0 {
		t.Errorf("Find of clean text allocates %v times", n)
	}
	if Find(nil) != nil || Redact(nil) != nil {
		t.Error("nil input")
	}
}

func TestMarkersNeverMatch(t *testing.T) {
	for _, k := range Kinds() {
		marker := "[REDACTED:" + k + "]"
		for _, in := range []string{
			marker,
			"https://u:" + marker + "@host/x",
			"aws_secret_access_key=" + marker,
			"sk-" + marker, "ghp_" + marker, marker + marker,
		} {
			if m := Find([]byte(in)); len(m) != 0 {
				t.Errorf("Find(%q) = %v", in, m)
			}
		}
	}
}

// adversarialUnits are inputs that, repeated, put an anchor every few
// bytes in front of text an unbounded matcher would scan to the end of:
// a quadratic implementation takes seconds on 256 KiB of them.
func adversarialUnits() []string {
	return []string{
		"sk-", "sk-A1", "eyJ", "eyJa.", "ey" + "J" + mix(13, 70) + ".",
		"github_pat_", "gh" + "p_", "glpat-a1B", "xoxb-1", "pypi-AgEIcHlwaS5vcmc-",
		"AKIA", "AIza", "-----BEGIN RSA PRIV" + "ATE KEY-----" + strings.Repeat("A", 40),
		"-----BEGIN RSA PRIV" + "ATE KEY-----", "a://", "a://b:", "a://b:c", "-", "_", ":", "A", "J",
		"aws_secret_access_key=", "https://hooks." + "slack.com/services/",
		"password=", "a_password=", "token: ", "api_key=" + mix(20, 71), "Authorization: Bearer ",
		"x=", "k: v", "hf_", "SG.", "dp.pt.", "Q~", "1Q~", ".atlasv1.", "v1.0-", "ntn_1", "sgp_",
		"AKCp", "ABSK", "eyJrIjoi", "password: " + mix(30, 72) + "\n",
		// A key's last letter after a run of separators longer than the
		// reach: the '=' or ':' of each is in the middle of the window.
		strings.Repeat("_", 12000) + "d=", strings.Repeat("-.", 6000) + "n: ",
	}
}

func TestDescribe(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		d := Describe(k)
		if d == k || d == "" || seen[d] {
			t.Errorf("Describe(%q) = %q", k, d)
		}
		seen[d] = true
	}
	if Describe("aws-access-key-id") != "AWS access key ID" {
		t.Error("Describe(aws-access-key-id)")
	}
	if Describe("nope") != "nope" {
		t.Error("unknown kind must be returned unchanged")
	}
}

func knownKind(k string) bool {
	for _, x := range Kinds() {
		if x == k {
			return true
		}
	}
	return false
}

func FuzzFind(f *testing.F) {
	for _, s := range findSeeds() { // secrets of every kind, glued, and keys like credentials
		f.Add([]byte(s))
	}
	for _, c := range ruleCases() {
		f.Add([]byte(c.in))
		f.Add([]byte(c.negative))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		orig := bytes.Clone(text)
		ms := Find(text)
		if !bytes.Equal(text, orig) {
			t.Fatal("Find modified its input")
		}
		prevEnd := 0
		for i, m := range ms {
			if m.Start < prevEnd || m.Start >= m.End || m.End > len(text) {
				t.Fatalf("match %d %+v out of range/order (prev end %d, len %d)", i, m, prevEnd, len(text))
			}
			if !knownKind(m.Kind) {
				t.Fatalf("unknown kind %q", m.Kind)
			}
			prevEnd = m.End
		}
		r := Redact(text)
		if !bytes.Equal(text, orig) {
			t.Fatal("Redact modified its input")
		}
		if len(ms) == 0 {
			if !bytes.Equal(r, text) {
				t.Fatalf("Redact changed clean text")
			}
			return
		}
		if again := Find(r); len(again) != 0 {
			t.Fatalf("Find(Redact(%q)) = %+v in %q", text, again, r)
		}
		// Unless replacing created a new match (see Redact), Redact is a
		// single replacement of Find's matches.
		if once := replace(text, ms); len(Find(once)) == 0 && !bytes.Equal(r, once) {
			t.Fatalf("Redact(%q) = %q, want %q", text, r, once)
		}
	})
}
