package secrets

import (
	"strings"
	"testing"
)

// Shapes of the tokens below follow public secret-scanner rule sets
// (gitleaks' config/gitleaks.toml, the issuers' documentation); the tokens
// are made up and assembled at run time, so this file holds no literal a
// scanner would flag. Each rule has a real-shaped positive and a
// placeholder (or near-miss) negative.

const (
	hexdig = "0123456789abcdef"
	lowdig = "abcdefghijklmnopqrstuvwxyz0123456789"
	letter = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b64    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	bech32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
	urlsaf = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
)

func hexs(n, seed int) string { return gen(n, seed, hexdig) }
func lows(n, seed int) string { return gen(n, seed, lowdig) }

type ruleCase struct {
	name     string
	in       string // contains the secret once
	kind     string
	secret   string
	negative string // a placeholder or near miss: no match
}

func ruleCases() []ruleCase {
	hf := "hf" + "_" + gen(34, 101, letter)
	hfOrg := "api" + "_org_" + gen(34, 102, letter)
	sg := "SG" + "." + gen(22, 103, urlsaf) + "." + gen(43, 104, urlsaf)
	azureKey := gen(86, 105, b64) + "=="
	azureAD := "a1B" + "8Q~" + gen(34, 106, alnum+"_~.")
	age := "AGE-SECRET-KEY-" + "1" + gen(58, 107, bech32)
	artifactory := "AK" + "Cp" + gen(69, 108, alnum)
	bedrock := "AB" + "SK" + gen(130, 109, b64)
	dop := "dop" + "_v1_" + hexs(64, 110)
	doppler := "dp" + ".pt." + gen(43, 111, alnum)
	duffel := "duffel" + "_live_" + gen(43, 112, alnum)
	dynatrace := "dt0c01" + "." + gen(24, 113, updig) + "." + gen(64, 114, updig)
	flw := "FLWSECK" + "_TEST-" + hexs(32, 115) + "-X"
	frameio := "fio" + "-u-" + gen(64, 116, urlsaf)
	gldt := "gl" + "dt-" + mix(20, 117)
	glrt := "gl" + "rt-" + mix(20, 118)
	glptt := "gl" + "ptt-" + hexs(40, 119)
	glc := "gl" + "c_" + gen(48, 120, alnum) + "=="
	glsa := "gl" + "sa_" + mix(32, 121) + "_" + hexs(8, 122)
	tf := lows(14, 123) + ".atlas" + "v1." + gen(64, 124, urlsaf)
	heroku := "HRKU" + "-AA" + gen(58, 125, urlsaf)
	ico := "ico" + "-" + mix(32, 126)
	linear := "lin" + "_api_" + mix(40, 127)
	mailgun := "key" + "-" + hexs(32, 128)
	mapbox := "sk" + ".eyJ1Ijoi" + gen(60, 129, alnum) + "." + gen(22, 130, alnum)
	nrak := "NR" + "AK-" + gen(27, 131, updig)
	notion := "ntn" + "_" + gen(11, 132, "0123456789") + gen(35, 133, alnum)
	octopus := "API" + "-" + gen(26, 134, updig)
	pplx := "pplx" + "-" + mix(48, 135)
	pscale := "pscale" + "_tkn_" + mix(43, 136)
	pmak := "PMAK" + "-" + hexs(24, 137) + "-" + hexs(34, 138)
	prefect := "pnu" + "_" + mix(36, 139)
	pulumi := "pul" + "-" + hexs(40, 140)
	rdme := "rdme" + "_" + lows(70, 141)
	rubygems := "rubygems" + "_" + hexs(48, 142)
	scalingo := "tk" + "-us-" + gen(48, 143, urlsaf)
	sntryu := "sntryu" + "_" + hexs(64, 144)
	smpat := "sm" + "_pat_" + mix(16, 145)
	shippo := "shippo" + "_live_" + hexs(40, 146)
	shpat := "shp" + "at_" + hexs(32, 147)
	shpss := "shp" + "ss_" + hexs(32, 148)
	sgp := "sgp" + "_" + hexs(40, 149)
	sq := "sq0" + "atp-" + gen(22, 150, urlsaf)
	hvs := "hvs" + "." + gen(96, 151, urlsaf)
	gocspx := "GOCSPX" + "-" + gen(28, 152, urlsaf)
	ya29 := "ya29" + "." + gen(120, 153, urlsaf)
	fo1 := "fo1" + "_" + gen(43, 154, urlsaf)
	clojars := "CLOJARS" + "_" + lows(60, 155)
	ops := "ops" + "_eyJ" + gen(260, 156, b64)
	cfca := "v1.0" + "-" + hexs(24, 157) + "-" + hexs(146, 158)
	xoxe := "xo" + "xe-1-" + gen(146, 159, updig)
	grafanaKey := "eyJr" + "Ijoi" + gen(80, 160, alnum) + "="
	pass16 := "Xk9$" + "mQ2#vL7pR4&wZ1!"
	bearer := gen(40, 161, urlsaf)
	basicCred := gen(32, 162, b64) + "=="
	hexKey := hexs(32, 162)
	hexTok := hexs(40, 163)
	apiHeader := gen(32, 164, alnum)
	return []ruleCase{
		// Self-identifying token formats.
		{"huggingface", "HF_TOKEN=" + hf + "\n", KindHuggingFace, hf, "hf" + "_" + strings.Repeat("x", 34)},
		{"huggingface org", "token " + hfOrg, KindHuggingFace, hfOrg, "api" + "_org_example_token_placeholder_value_ok"},
		{"sendgrid", "SENDGRID_API_KEY='" + sg + "'", KindSendGrid, sg, "SG" + ".xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"azure storage account key", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net", KindSecretValue, azureKey, "AccountName=shop;AccountKey=<your-account-key>;EndpointSuffix=core.windows.net"},
		{"azure ad client secret", "client secret " + azureAD + " here", KindAzureADSecret, azureAD, "secret abc8Q~" + strings.Repeat("x", 34)},
		{"age secret key", age, KindAgeSecretKey, age, "AGE-SECRET-KEY-" + "1" + strings.Repeat("Q", 58)},
		{"artifactory", "X-JFrog-Art-Api: " + artifactory, KindArtifactory, artifactory, "AK" + "Cp" + strings.Repeat("x", 69)},
		{"aws bedrock", "key " + bedrock, KindAWSBedrock, bedrock, "AB" + "SK" + strings.Repeat("A", 130)},
		{"digitalocean", "DO=" + dop, KindDigitalOcean, dop, "dop" + "_v1_" + strings.Repeat("0", 64)},
		{"doppler", doppler, KindDoppler, doppler, "dp" + ".pt." + strings.Repeat("x", 43)},
		{"duffel", duffel, KindDuffel, duffel, "duffel" + "_live_" + "your_token_here_________________________xx"},
		{"dynatrace", dynatrace, KindDynatrace, dynatrace, "dt0c01" + "." + strings.Repeat("X", 24) + "." + strings.Repeat("X", 64)},
		{"flutterwave", flw, KindFlutterwave, flw, "FLWSECK" + "_TEST-" + strings.Repeat("x", 32) + "-X"},
		{"frame.io", frameio, KindFrameIO, frameio, "fio" + "-u-" + strings.Repeat("x", 64)},
		{"gitlab deploy token", gldt, KindGitLabToken, gldt, "gl" + "dt-" + "xxxxxxxxxxxxxxxxxxxx"},
		{"gitlab runner token", glrt, KindGitLabToken, glrt, "gl" + "rt-" + "<runner-token-here>"},
		{"gitlab trigger token", glptt, KindGitLabToken, glptt, "gl" + "ptt-" + strings.Repeat("0", 40)},
		{"grafana cloud", glc, KindGrafana, glc, "gl" + "c_" + strings.Repeat("x", 48)},
		{"grafana service account", glsa, KindGrafana, glsa, "gl" + "sa_" + strings.Repeat("x", 32) + "_" + strings.Repeat("0", 8)},
		{"grafana api key", "key: " + grafanaKey, KindGrafana, grafanaKey, "eyJr" + "Ijoi" + strings.Repeat("A", 80)},
		{"terraform cloud", tf, KindTerraform, tf, "xxxxxxxxxxxxxx.atlas" + "v1." + strings.Repeat("x", 64)},
		{"heroku", heroku, KindHeroku, heroku, "HRKU" + "-AA" + strings.Repeat("x", 58)},
		{"infracost", ico, KindInfracost, ico, "ico" + "-" + strings.Repeat("x", 32)},
		{"linear", linear, KindLinear, linear, "lin" + "_api_" + strings.Repeat("x", 40)},
		{"mailgun", "MAILGUN=" + mailgun, KindMailgun, mailgun, "key" + "-value store with key-" + strings.Repeat("0", 32)},
		{"mapbox secret", mapbox, KindMapbox, mapbox, "sk" + ".eyJ1Ijoi" + strings.Repeat("x", 60) + "." + strings.Repeat("x", 22)},
		{"new relic", nrak, KindNewRelic, nrak, "NR" + "AK-" + strings.Repeat("X", 27)},
		{"notion", notion, KindNotion, notion, "ntn" + "_" + "12345678901" + strings.Repeat("x", 35)},
		{"octopus", octopus, KindOctopus, octopus, "API" + "-" + strings.Repeat("X", 26)},
		{"perplexity", pplx, KindPerplexity, pplx, "pplx" + "-" + strings.Repeat("x", 48)},
		{"planetscale", pscale, KindPlanetScale, pscale, "pscale" + "_tkn_" + strings.Repeat("x", 43)},
		{"postman", pmak, KindPostman, pmak, "PMAK" + "-" + strings.Repeat("x", 24) + "-" + strings.Repeat("x", 34)},
		{"prefect", prefect, KindPrefect, prefect, "pnu" + "_" + strings.Repeat("x", 36)},
		{"pulumi", pulumi, KindPulumi, pulumi, "pul" + "-" + strings.Repeat("0", 40)},
		{"readme", rdme, KindReadme, rdme, "rdme" + "_" + strings.Repeat("x", 70)},
		{"rubygems", rubygems, KindRubyGems, rubygems, "rubygems" + "_" + strings.Repeat("0", 48)},
		{"scalingo", scalingo, KindScalingo, scalingo, "tk" + "-us-" + strings.Repeat("x", 48)},
		{"sentry user token", sntryu, KindSentry, sntryu, "sntryu" + "_" + strings.Repeat("0", 64)},
		{"settlemint", smpat, KindSettleMint, smpat, "sm" + "_pat_" + strings.Repeat("x", 16)},
		{"shippo", shippo, KindShippo, shippo, "shippo" + "_live_" + strings.Repeat("0", 40)},
		{"shopify access", shpat, KindShopify, shpat, "shp" + "at_" + strings.Repeat("0", 32)},
		{"shopify shared secret", shpss, KindShopify, shpss, "shp" + "ss_" + strings.Repeat("f", 32)},
		{"sourcegraph", sgp, KindSourcegraph, sgp, "sgp" + "_" + strings.Repeat("0", 40)},
		{"square", sq, KindSquare, sq, "sq0" + "atp-" + strings.Repeat("x", 22)},
		{"vault", hvs, KindVault, hvs, "hvs" + "." + strings.Repeat("x", 96)},
		{"google oauth client secret", gocspx, KindGoogleOAuth, gocspx, "GOCSPX" + "-" + strings.Repeat("x", 28)},
		{"google oauth access token", ya29, KindGoogleOAuth, ya29, "ya29" + "." + strings.Repeat("x", 120)},
		{"fly.io", fo1, KindFlyIO, fo1, "fo1" + "_" + strings.Repeat("x", 43)},
		{"clojars", clojars, KindClojars, clojars, "CLOJARS" + "_" + strings.Repeat("x", 60)},
		{"1password service account", ops, KindOnePassword, ops, "ops" + "_eyJ" + strings.Repeat("A", 260)},
		{"cloudflare origin ca", cfca, KindCloudflareCA, cfca, "v1.0" + "-" + strings.Repeat("0", 24) + "-" + strings.Repeat("0", 146)},
		{"slack config refresh", xoxe, KindSlackToken, xoxe, "xo" + "xe-1-" + strings.Repeat("X", 146)},

		// Keyword-anchored assignments: a secret-like key, then a value
		// that looks random.
		{"password yaml", "db:\n  password: " + pass16 + "\n", KindPassword, pass16, "db:\n  password: <your password>\n"},
		{"password env", "DB_PASSWORD=" + pass16, KindPassword, pass16, "DB_PASSWORD=${DB_PASSWORD}"},
		{"password json", `{"user": "app", "password": "` + pass16 + `"}`, KindPassword, pass16, `{"user": "app", "password": "EXAMPLE-password"}`},
		{"password go", `password := "` + pass16 + `"`, KindPassword, pass16, `password := os.Getenv("DB_PASSWORD")`},
		{"bearer header", "Authorization: Bearer " + bearer, KindAuthHeader, bearer, "Authorization: Bearer <token>"},
		{"bearer curl", `curl -H "Authorization: Bearer ` + bearer + `" https://api`, KindAuthHeader, bearer, `curl -H "Authorization: Bearer $TOKEN" https://api`},
		{"bearer json header", `fetch(url, {headers: {"Authorization": "Bearer ` + bearer + `"}})`, KindAuthHeader, bearer, `{"Authorization": "Bearer <token>"}`},
		{"basic quoted header", `headers = {'Authorization': 'Basic ` + basicCred + `'}`, KindAuthHeader, basicCred, `headers = {'Authorization': 'Basic ' + b64encode(creds)}`},
		{"api_key hex", "api_key=" + hexKey, KindSecretValue, hexKey, "api_key=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"API_KEY hex", "export API_KEY=" + hexKey, KindSecretValue, hexKey, "export API_KEY=YOUR_API_KEY"},
		{"token query", "https://api.shop.test/v1/orders?token=" + hexTok + "&page=2", KindSecretValue, hexTok, "https://api.shop.test/v1/orders?token={token}&page=2"},
		{"x-api-key header", "X-Api-Key: " + apiHeader, KindSecretValue, apiHeader, "X-Api-Key: <api-key>"},
		{"token quoted hex", `token: "` + hexTok + `"`, KindSecretValue, hexTok, `token: "xxxx"`},
		{"client secret", "client_secret = '" + apiHeader + "'", KindSecretValue, apiHeader, "client_secret = 'EXAMPLE'"},
	}
}

// TestRules runs every rule's positive (found, with the exact span and
// kind) and negative (nothing found).
func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range ruleCases() {
		t.Run(c.name, func(t *testing.T) {
			if strings.Count(c.in, c.secret) != 1 {
				t.Fatalf("bad case: the secret must occur once in the input")
			}
			start := strings.Index(c.in, c.secret)
			want := Match{Kind: c.kind, Start: start, End: start + len(c.secret)}
			got := Find([]byte(c.in))
			if len(got) != 1 || got[0] != want {
				var spans []string
				for _, m := range got {
					spans = append(spans, m.Kind+" "+c.in[m.Start:m.End])
				}
				t.Errorf("Find(%q) = %v %q, want %+v", c.in, got, spans, want)
			}
			if got := Find([]byte(c.negative)); len(got) != 0 {
				t.Errorf("negative Find(%q) = %v", c.negative, got)
			}
			if r := Redact([]byte(c.in)); strings.Contains(string(r), c.secret) {
				t.Errorf("Redact left the secret: %q", r)
			}
		})
		seen[c.kind] = true
	}
	for _, k := range Kinds() {
		if !seen[k] && !oldKinds[k] {
			t.Errorf("kind %s has no rule case", k)
		}
	}
}

// oldKinds are covered by TestFind.
var oldKinds = map[string]bool{
	KindPrivateKey: true, KindAWSAccessKeyID: true, KindAWSSecretKey: true, KindGitHubToken: true,
	KindGitLabToken: true, KindSlackToken: true, KindSlackWebhook: true, KindAnthropicAPIKey: true,
	KindOpenAIAPIKey: true, KindGoogleAPIKey: true, KindStripeKey: true, KindNPMToken: true,
	KindPyPIToken: true, KindJWT: true, KindURLPassword: true,
}

// TestAssignmentsQuiet: ordinary configuration, prose and code with
// secret-like keys but no secret.
func TestAssignmentsQuiet(t *testing.T) {
	for _, in := range []string{
		"password: true", "password: required", "password_min_length: 12", "token_count: 4096",
		"max_tokens: 8192", "input_tokens = 123456", "passwordless login is on",
		"The password: keep it in the vault, never here.",
		"token: the session token, refreshed hourly",
		"api_key: config.apiKey", "secret = process.env.SECRET", "token = self.get_token()",
		"password = getpass.getpass()", "password: !vault |", "token: ${{ secrets.GITHUB_TOKEN }}",
		"password: '{{ db_password }}'", "password=%s", "password: ********", "token: null",
		"api_key: ...", "password: changeme", "password: hunter2", "secret: my-app-secret-name",
		"token_type: access_token", "auth: basic", "Authorization: Bearer", "Authorization: Basic $(echo -n user:pw | base64)",
		"api_key: v2-production-key-01", "secret_name: prod-db-credentials-2024",
		"session_id: 0193a1b2-7c00-7d11-8e22-33445566aabb", "key: ctrl+shift+p",
		"primary_key: id", "sort_key = created_at", "passphrase: correct horse battery staple",
		"- [ ] rotate the token: see #ops-runbook", "csrf_token: {{ csrf_token() }}",
		"if password == confirm {", "token != nil", "x := token[:8]", "password: <redacted>",
		"api_key: sk-...", "token: abc123", "AccountKey=;EndpointSuffix=core.windows.net",
		"Use `api_key=...` in the query string.", "keypass: changeit",
		"password: Passw0rd!", "token: 00000000-0000-0000-0000-000000000000",
	} {
		if got := Find([]byte(in)); len(got) != 0 {
			t.Errorf("Find(%q) = %v (%q)", in, got, in[got[0].Start:got[0].End])
		}
	}
}

// TestAssignmentsQuietInCode: lines from real code and tool output that
// look like assignments to a credential key (found scanning Go module
// sources).
func TestAssignmentsQuietInCode(t *testing.T) {
	for _, in := range []string{
		`// decryption password: "correct horse battery staple"`,
		`url, directory, username, password := os.Args[1], os.Args[2], os.Args[3], os.Args[4]`,
		`password = os.Args[4]`,
		`cmd.Env = append(os.Environ(), "PWD="+cmd.Dir, "GOROOT="+build.Default.GOROOT)`,
		`--- PASS: TestGoList/GOPATH (0.03s)`,
		`PASS: TestRetryPolicy/backoff_2x`,
		`PWD=/home/ana/src/tinyshop`,
		`password: my_service_name`,
		`oauth2ClientCredentials: Oauth2ClientCredentials.`,
		`"encryptionKey": "encryptionKey1024",`,
		`private_key: PKCS7PrivateKeyTypes,`,
		`_password: DEPRECATED: For improved security, specify the password`,
		`password: your@login`,
		`self.master_password = 'P4ssword'`,
		":type passphrase: :py:data:`bytes`",
		`var password=F.isWritable=F.isReadable=F.isStream=void 0`,
		`passwd: GID:user_list`,
		`'&x-goog-credential=fake_service_account_email%2F19000101%2Fus-'`,
	} {
		if got := Find([]byte(in)); len(got) != 0 {
			t.Errorf("Find(%q) = %v (%q)", in, got, in[got[0].Start:got[0].End])
		}
	}
}
