package secrets

import (
	"bytes"
	"slices"
)

// Kinds of secrets reported in Match.Kind. The values are stable.
const (
	KindPrivateKey      = "private-key-block"
	KindAWSAccessKeyID  = "aws-access-key-id"
	KindAWSSecretKey    = "aws-secret-access-key"
	KindGitHubToken     = "github-token"
	KindGitLabToken     = "gitlab-token"
	KindSlackToken      = "slack-token"
	KindSlackWebhook    = "slack-webhook"
	KindAnthropicAPIKey = "anthropic-api-key"
	KindOpenAIAPIKey    = "openai-api-key"
	KindGoogleAPIKey    = "google-api-key"
	KindStripeKey       = "stripe-secret-key"
	KindNPMToken        = "npm-token"
	KindPyPIToken       = "pypi-token"
	KindJWT             = "jwt"
	KindURLPassword     = "url-password"
)

// Match is one detected secret: text[Start:End] is the secret.
type Match struct {
	Kind       string // stable id, one of the Kind* constants
	Start, End int    // byte offsets in the input
}

// Kinds returns every kind Find can report, in a fixed order.
func Kinds() []string {
	return []string{
		KindPrivateKey, KindAWSAccessKeyID, KindAWSSecretKey,
		KindGitHubToken, KindGitLabToken, KindSlackToken, KindSlackWebhook,
		KindAnthropicAPIKey, KindOpenAIAPIKey, KindGoogleAPIKey,
		KindStripeKey, KindNPMToken, KindPyPIToken, KindJWT, KindURLPassword,
	}
}

// Describe returns a human-readable name for kind, e.g. "AWS access key ID".
// An unknown kind is returned unchanged.
func Describe(kind string) string {
	switch kind {
	case KindPrivateKey:
		return "private key block"
	case KindAWSAccessKeyID:
		return "AWS access key ID"
	case KindAWSSecretKey:
		return "AWS secret access key"
	case KindGitHubToken:
		return "GitHub token"
	case KindGitLabToken:
		return "GitLab personal access token"
	case KindSlackToken:
		return "Slack token"
	case KindSlackWebhook:
		return "Slack webhook URL"
	case KindAnthropicAPIKey:
		return "Anthropic API key"
	case KindOpenAIAPIKey:
		return "OpenAI API key"
	case KindGoogleAPIKey:
		return "Google API key"
	case KindStripeKey:
		return "Stripe secret key"
	case KindNPMToken:
		return "npm access token"
	case KindPyPIToken:
		return "PyPI API token"
	case KindJWT:
		return "JSON Web Token"
	case KindURLPassword:
		return "password in URL"
	}
	return kind
}

// priority breaks ties between candidates with the same span: a specific
// token format wins over the generic ones.
func priority(kind string) int {
	switch kind {
	case KindURLPassword:
		return 0
	case KindJWT:
		return 1
	case KindPrivateKey:
		return 3
	}
	return 2
}

// Find returns the secrets in text, ordered by Start and non-overlapping.
// It returns nil (and does not allocate) when text contains no secret.
func Find(text []byte) []Match {
	var ms []Match
	ms = scanByte(text, '-', atDash, ms)
	ms = scanByte(text, '_', atUnderscore, ms)
	ms = scanByte(text, ':', atColon, ms)
	ms = scanByte(text, 'A', atA, ms)
	ms = scanJ(text, ms)
	if len(ms) > 1 {
		ms = normalize(ms)
	}
	return ms
}

// scanByte calls at for every occurrence of the anchor byte c, skipping
// past each match found.
func scanByte(text []byte, c byte, at func([]byte, int) (Match, bool), ms []Match) []Match {
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], c)
		if j < 0 {
			break
		}
		i += j
		if m, ok := at(text, i); ok {
			ms = append(ms, m)
			if m.End > i {
				i = m.End
				continue
			}
		}
		i++
	}
	return ms
}

// scanJ is scanByte for 'J' (JSON Web Tokens), whose matcher can tell
// where to resume after a failure.
func scanJ(text []byte, ms []Match) []Match {
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], 'J')
		if j < 0 {
			break
		}
		i += j
		m, ok, next := atJ(text, i)
		switch {
		case ok:
			ms = append(ms, m)
			i = m.End
		case next > i:
			i = next
		default:
			i++
		}
	}
	return ms
}

// normalize sorts candidates by Start and merges overlapping ones: the
// first (longest, then highest priority) keeps its kind and its End grows
// to cover the others.
func normalize(ms []Match) []Match {
	slices.SortFunc(ms, func(a, b Match) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		if a.End != b.End {
			return b.End - a.End
		}
		return priority(b.Kind) - priority(a.Kind)
	})
	out := ms[:1]
	for _, m := range ms[1:] {
		last := &out[len(out)-1]
		if m.Start < last.End {
			last.End = max(last.End, m.End)
			continue
		}
		out = append(out, m)
	}
	return out
}

const (
	redactPrefix = "[REDACTED:"
	redactSuffix = "]"
	// maxRedactRounds bounds the re-scan loop of Redact; every round
	// consumes at least one byte of the original text, and in practice a
	// second round is almost never needed.
	maxRedactRounds = 16
)

// Redact replaces each secret found by Find with "[REDACTED:<kind>]". When
// nothing matched it returns text itself.
//
// Replacing a secret changes the context of its neighbours: a token that was
// not reported because it was glued to the secret (e.g. an AWS key ID
// directly followed by a JWT) may become a match once the secret is replaced
// by the marker. Redact therefore scans its output again until it is clean,
// so Find(Redact(text)) is empty.
func Redact(text []byte) []byte {
	ms := Find(text)
	if len(ms) == 0 {
		return text
	}
	out := replace(text, ms)
	for range maxRedactRounds {
		ms = Find(out)
		if len(ms) == 0 {
			break
		}
		out = replace(out, ms)
	}
	return out
}

func replace(text []byte, ms []Match) []byte {
	n := len(text)
	for _, m := range ms {
		n += len(redactPrefix) + len(m.Kind) + len(redactSuffix) - (m.End - m.Start)
	}
	out := make([]byte, 0, n)
	prev := 0
	for _, m := range ms {
		out = append(out, text[prev:m.Start]...)
		out = append(out, redactPrefix...)
		out = append(out, m.Kind...)
		out = append(out, redactSuffix...)
		prev = m.End
	}
	return append(out, text[prev:]...)
}
