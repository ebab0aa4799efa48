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

	KindHuggingFace   = "huggingface-token"
	KindSendGrid      = "sendgrid-api-key"
	KindAzureADSecret = "azure-ad-client-secret"
	KindAgeSecretKey  = "age-secret-key"
	KindArtifactory   = "artifactory-api-key"
	KindAWSBedrock    = "aws-bedrock-api-key"
	KindDigitalOcean  = "digitalocean-token"
	KindDoppler       = "doppler-token"
	KindDuffel        = "duffel-token"
	KindDynatrace     = "dynatrace-token"
	KindFlutterwave   = "flutterwave-secret-key"
	KindFrameIO       = "frameio-token"
	KindGrafana       = "grafana-token"
	KindTerraform     = "terraform-cloud-token"
	KindHeroku        = "heroku-api-key"
	KindInfracost     = "infracost-token"
	KindLinear        = "linear-api-key"
	KindMailgun       = "mailgun-api-key"
	KindMapbox        = "mapbox-secret-token"
	KindNewRelic      = "new-relic-key"
	KindNotion        = "notion-token"
	KindOctopus       = "octopus-deploy-api-key"
	KindPerplexity    = "perplexity-api-key"
	KindPlanetScale   = "planetscale-token"
	KindPostman       = "postman-api-key"
	KindPrefect       = "prefect-token"
	KindPulumi        = "pulumi-token"
	KindReadme        = "readme-token"
	KindRubyGems      = "rubygems-token"
	KindScalingo      = "scalingo-token"
	KindSentry        = "sentry-token"
	KindSettleMint    = "settlemint-token"
	KindShippo        = "shippo-token"
	KindShopify       = "shopify-token"
	KindSourcegraph   = "sourcegraph-token"
	KindSquare        = "square-token"
	KindVault         = "vault-token"
	KindGoogleOAuth   = "google-oauth-secret"
	KindFlyIO         = "flyio-token"
	KindClojars       = "clojars-token"
	KindOnePassword   = "1password-token"
	KindCloudflareCA  = "cloudflare-origin-ca-key"

	// Keyword-anchored: the value of a setting named like a credential.
	KindPassword    = "password"
	KindSecretValue = "secret-value"
	KindAuthHeader  = "authorization-header"
)

// Match is one detected secret: text[Start:End] is the secret.
type Match struct {
	Kind       string // stable id, one of the Kind* constants
	Start, End int    // byte offsets in the input
}

// kindNames lists every kind with its human-readable name, in a fixed
// order.
func kindNames() [][2]string {
	return [][2]string{
		{KindPrivateKey, "private key block"},
		{KindAWSAccessKeyID, "AWS access key ID"},
		{KindAWSSecretKey, "AWS secret access key"},
		{KindGitHubToken, "GitHub token"},
		{KindGitLabToken, "GitLab token"},
		{KindSlackToken, "Slack token"},
		{KindSlackWebhook, "Slack webhook URL"},
		{KindAnthropicAPIKey, "Anthropic API key"},
		{KindOpenAIAPIKey, "OpenAI API key"},
		{KindGoogleAPIKey, "Google API key"},
		{KindStripeKey, "Stripe secret key"},
		{KindNPMToken, "npm access token"},
		{KindPyPIToken, "PyPI API token"},
		{KindJWT, "JSON Web Token"},
		{KindURLPassword, "password in URL"},
		{KindHuggingFace, "Hugging Face token"},
		{KindSendGrid, "SendGrid API key"},
		{KindAzureADSecret, "Azure AD client secret"},
		{KindAgeSecretKey, "age secret key"},
		{KindArtifactory, "Artifactory API key"},
		{KindAWSBedrock, "Amazon Bedrock API key"},
		{KindDigitalOcean, "DigitalOcean token"},
		{KindDoppler, "Doppler token"},
		{KindDuffel, "Duffel token"},
		{KindDynatrace, "Dynatrace token"},
		{KindFlutterwave, "Flutterwave secret key"},
		{KindFrameIO, "Frame.io token"},
		{KindGrafana, "Grafana token"},
		{KindTerraform, "Terraform Cloud token"},
		{KindHeroku, "Heroku API key"},
		{KindInfracost, "Infracost token"},
		{KindLinear, "Linear API key"},
		{KindMailgun, "Mailgun API key"},
		{KindMapbox, "Mapbox secret token"},
		{KindNewRelic, "New Relic key"},
		{KindNotion, "Notion token"},
		{KindOctopus, "Octopus Deploy API key"},
		{KindPerplexity, "Perplexity API key"},
		{KindPlanetScale, "PlanetScale token"},
		{KindPostman, "Postman API key"},
		{KindPrefect, "Prefect token"},
		{KindPulumi, "Pulumi token"},
		{KindReadme, "ReadMe token"},
		{KindRubyGems, "RubyGems token"},
		{KindScalingo, "Scalingo token"},
		{KindSentry, "Sentry token"},
		{KindSettleMint, "SettleMint token"},
		{KindShippo, "Shippo token"},
		{KindShopify, "Shopify token"},
		{KindSourcegraph, "Sourcegraph token"},
		{KindSquare, "Square token"},
		{KindVault, "HashiCorp Vault token"},
		{KindGoogleOAuth, "Google OAuth secret or access token"},
		{KindFlyIO, "Fly.io token"},
		{KindClojars, "Clojars token"},
		{KindOnePassword, "1Password service account token"},
		{KindCloudflareCA, "Cloudflare Origin CA key"},
		{KindPassword, "password (the value of a password setting)"},
		{KindSecretValue, "secret (the value of a token, secret or API key setting)"},
		{KindAuthHeader, "credential in an Authorization header"},
	}
}

// Kinds returns every kind Find can report, in a fixed order.
func Kinds() []string {
	names := kindNames()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n[0]
	}
	return out
}

// Describe returns a human-readable name for kind, e.g. "AWS access key ID".
// An unknown kind is returned unchanged.
func Describe(kind string) string {
	for _, n := range kindNames() {
		if n[0] == kind {
			return n[1]
		}
	}
	return kind
}

// priority breaks ties between candidates with the same span: a specific
// token format wins over the generic ones.
func priority(kind string) int {
	switch kind {
	case KindPassword, KindSecretValue, KindAuthHeader:
		return 0
	case KindURLPassword:
		return 1
	case KindJWT:
		return 2
	case KindPrivateKey:
		return 4
	}
	return 3
}

// Find returns the secrets in text, ordered by Start and non-overlapping.
// It returns nil (and does not allocate) when text contains no secret.
func Find(text []byte) []Match {
	var ms []Match
	ms = scanByte(text, '-', atDash, ms)
	ms = scanByte(text, '_', atUnderscore, ms)
	ms = scanByte(text, '.', atDot, ms)
	ms = scanByte(text, '~', atTilde, ms)
	ms = scanByte(text, ':', atColon, ms)
	ms = scanByte(text, '=', atAssign, ms)
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

// normalize sorts candidates by Start and merges overlapping ones into
// one match that covers them all, so that Redact never leaves part of a
// secret behind. The merged match takes the kind of its most specific
// candidate (highest priority; then the longest, then the first): a token
// of a known format assigned to a key is reported as that format.
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
			if priority(m.Kind) > priority(last.Kind) {
				last.Kind = m.Kind
			}
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
