package secrets

import "bytes"

// Byte classes.
const (
	cLower uint8 = 1 << iota
	cUpper
	cDigit
	cUnder     // _
	cDash      // -
	cPlusSlash // + /
	cDot       // .
	cHexLetter // a-f A-F (also in cLower or cUpper)

	mAlnum   = cLower | cUpper | cDigit // [A-Za-z0-9]
	mHex     = cDigit | cHexLetter      // [0-9a-fA-F]
	mLetter  = cLower | cUpper          // [A-Za-z]
	mWord    = mAlnum | cUnder          // \w
	mURLSafe = mWord | cDash            // [A-Za-z0-9_-]
	mB64     = mAlnum | cPlusSlash      // [A-Za-z0-9+/]
	mUpDig   = cUpper | cDigit          // [A-Z0-9]
	mSlack   = mAlnum | cDash           // [A-Za-z0-9-]
)

// class is a read-only lookup table, filled once at package init.
var class = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = cLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = cUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cDigit
	}
	t['_'] = cUnder
	t['-'] = cDash
	t['+'] = cPlusSlash
	t['/'] = cPlusSlash
	t['.'] = cDot
	for _, c := range "abcdefABCDEF" {
		t[c] |= cHexLetter
	}
	return t
}()

// run returns the length of the run of bytes in class mask starting at p,
// but stops counting at limit+1: a result > limit means "too long". The
// limit keeps the work per anchor bounded, so Find stays linear even on
// adversarial input such as "sk-sk-sk-...".
func run(text []byte, p int, mask uint8, limit int) int {
	end := min(len(text), p+limit+1)
	q := p
	for q < end && class[text[q]]&mask != 0 {
		q++
	}
	return q - p
}

// Upper bounds of the random parts of tokens (generous).
const (
	maxToken = 255  // GitHub, GitLab, Slack, Stripe
	maxAPI   = 512  // OpenAI, Anthropic
	maxPyPI  = 1024 // PyPI macaroons
)

// leftOK reports whether position s is at the start of a word.
func leftOK(text []byte, s int) bool {
	return s == 0 || class[text[s-1]]&mWord == 0
}

// hasPrefix is bytes.HasPrefix for a string prefix, without conversion.
func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold is hasPrefix ignoring ASCII case; p must be lower case.
func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lower(b[i]) != p[i] {
			return false
		}
	}
	return true
}

// containsFold reports whether b contains p ignoring ASCII case; p must be
// lower case.
func containsFold(b []byte, p string) bool {
	for i := 0; i+len(p) <= len(b); i++ {
		if lower(b[i]) == p[0] && hasPrefixFold(b[i:], p) {
			return true
		}
	}
	return false
}

// classes returns the union of the byte classes in b.
func classes(b []byte) uint8 {
	var u uint8
	for _, c := range b {
		u |= class[c]
	}
	return u
}

// mixed reports whether b has at least two of: upper case, lower case,
// digits. Random tokens do; identifiers and words mostly do not.
func mixed(b []byte) bool {
	u := classes(b) & mAlnum
	return u&(u-1) != 0
}

// hasLettersAndDigits reports whether b has both.
func hasLettersAndDigits(b []byte) bool {
	u := classes(b)
	return u&mLetter != 0 && u&cDigit != 0
}

// allClasses reports whether b has upper case, lower case and digits.
func allClasses(b []byte) bool {
	return classes(b)&mAlnum == mAlnum
}

// isPlaceholder reports whether tok, the variable part of a token, is a
// documentation placeholder rather than a secret: one repeated character,
// or containing "example", "xxxx", "your_", "your-", "redacted" (any case),
// "<", ">", or a run like "0123456789", "1234567890", "abcdefghij".
func isPlaceholder(tok []byte) bool {
	if len(tok) == 0 {
		return true
	}
	same := true
	for i, c := range tok {
		if c != tok[0] {
			same = false
		}
		var hit bool
		switch lower(c) {
		case '<', '>':
			return true
		case 'e':
			hit = hasPrefixFold(tok[i:], "example")
		case 'x':
			hit = hasPrefixFold(tok[i:], "xxxx")
		case 'y':
			hit = hasPrefixFold(tok[i:], "your_") || hasPrefixFold(tok[i:], "your-")
		case 'r':
			hit = hasPrefixFold(tok[i:], "redacted")
		case '0':
			hit = hasPrefix(tok[i:], "0123456789")
		case '1':
			hit = hasPrefix(tok[i:], "1234567890")
		case 'a':
			hit = hasPrefixFold(tok[i:], "abcdefghij")
		}
		if hit {
			return true
		}
	}
	return same
}

func match(kind string, start, end int) (Match, bool) {
	return Match{Kind: kind, Start: start, End: end}, true
}

// ---- '-' anchor: private keys, sk-, glpat-, xox?-, xapp-, pypi-, aws-secret-access-key

func atDash(text []byte, i int) (Match, bool) {
	if i+1 < len(text) && text[i+1] == '-' {
		if hasPrefix(text[i:], "-----BEGIN ") {
			return privateKey(text, i)
		}
		return Match{}, false
	}
	switch {
	case i >= 2 && text[i-1] == 'k' && text[i-2] == 's':
		if !leftOK(text, i-2) {
			break
		}
		if hasPrefix(text[i+1:], "ant-") {
			return anthropic(text, i-2)
		}
		return openAI(text, i-2)
	case i >= 5 && string(text[i-5:i]) == "glpat":
		if leftOK(text, i-5) {
			return urlSafeToken(text, i-5, i+1, KindGitLabToken, 20)
		}
	case i >= 4 && string(text[i-4:i-1]) == "xox":
		switch text[i-1] {
		case 'a', 'b', 'p', 'o', 's', 'r', 'e':
			if leftOK(text, i-4) {
				return slackToken(text, i-4, i+1)
			}
		}
	case i >= 4 && string(text[i-4:i]) == "xapp":
		if leftOK(text, i-4) {
			return slackToken(text, i-4, i+1)
		}
	case i >= 4 && string(text[i-4:i]) == "pypi":
		if leftOK(text, i-4) && hasPrefix(text[i+1:], "AgEIcHlwaS5vcmc") {
			p := i + 1 + len("AgEIcHlwaS5vcmc")
			n := run(text, p, mURLSafe, maxPyPI)
			if n >= 50 && n <= maxPyPI && !isPlaceholder(text[p:p+n]) {
				return match(KindPyPIToken, i-4, p+n)
			}
		}
	case i >= 6 && hasPrefixFold(text[i-6:], "secret-access-key"):
		return awsSecretValue(text, i+len("-access-key"))
	}
	return prefixedToken(text, i)
}

const maxKeyLabel = 48

// privateKey matches a PEM/OpenSSH/PGP private key block at s, which starts
// with "-----BEGIN ".
func privateKey(text []byte, s int) (Match, bool) {
	p := s + len("-----BEGIN ")
	q := p
	for q < len(text) && q-p <= maxKeyLabel && (class[text[q]]&mUpDig != 0 || text[q] == ' ') {
		q++
	}
	label := text[p:q]
	if !hasPrefix(text[q:], "-----") {
		return Match{}, false
	}
	if !(bytes.HasSuffix(label, []byte("PRIVATE KEY")) || bytes.HasSuffix(label, []byte("PRIVATE KEY BLOCK"))) {
		return Match{}, false
	}
	if k := bytes.Index(label, []byte("PRIVATE KEY")); k > 0 && label[k-1] != ' ' {
		return Match{}, false // e.g. "NONPRIVATE KEY"
	}
	body := q + len("-----")
	// Look for key material in the first 1 KiB of the body first, so
	// that the work for a header without a key is bounded.
	head := text[body:min(len(text), body+1024)]
	if k := bytes.Index(head, []byte("-----END ")); k >= 0 {
		head = head[:k]
	}
	if !hasKeyMaterial(head) {
		return Match{}, false
	}
	end := len(text)
	if k := bytes.Index(text[body:], []byte("-----END ")); k >= 0 {
		r := body + k + len("-----END ")
		lim := min(len(text), r+maxKeyLabel+len("-----"))
		if k := bytes.Index(text[r:lim], []byte("-----")); k >= 0 {
			end = r + k + len("-----")
		} else if k := bytes.IndexByte(text[r:], '\n'); k >= 0 {
			end = r + k
		}
	}
	return match(KindPrivateKey, s, end)
}

// hasKeyMaterial reports whether b contains a run of at least 40 base64
// characters, as every line of a PEM or OpenSSH key body does.
func hasKeyMaterial(b []byte) bool {
	n := 0
	for _, c := range b {
		if class[c]&mB64 != 0 || c == '=' {
			n++
			if n >= 40 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// anthropic matches sk-ant-<type><2 digits>-<80+ chars> at s.
func anthropic(text []byte, s int) (Match, bool) {
	p := s + len("sk-ant-")
	n := run(text, p, cLower, 8)
	if n < 3 || n > 8 {
		return Match{}, false
	}
	p += n
	if p+3 > len(text) || class[text[p]] != cDigit || class[text[p+1]] != cDigit || text[p+2] != '-' {
		return Match{}, false
	}
	p += 3
	n = run(text, p, mURLSafe, maxAPI)
	if n < 80 || n > maxAPI || isPlaceholder(text[p:p+n]) {
		return Match{}, false
	}
	return match(KindAnthropicAPIKey, s, p+n)
}

// openAI matches sk-(proj-|svcacct-|admin-)?<20+ chars> at s. The random
// part must mix upper case, lower case and digits and contain a run of 16
// alphanumerics, which hyphenated words ("sk-learn-0-24") never do.
func openAI(text []byte, s int) (Match, bool) {
	p := s + len("sk-")
	n := run(text, p, mURLSafe, maxAPI)
	if n > maxAPI {
		return Match{}, false
	}
	end := p + n
	for _, pre := range [...]string{"proj-", "svcacct-", "admin-"} {
		if hasPrefix(text[p:end], pre) {
			p += len(pre)
			break
		}
	}
	tok := text[p:end]
	if len(tok) < 20 || !allClasses(tok) || isPlaceholder(tok) {
		return Match{}, false
	}
	best := 0
	for k := 0; k < len(tok); {
		r := run(tok, k, mAlnum, len(tok))
		best = max(best, r)
		k += r + 1
	}
	if best < 16 {
		return Match{}, false
	}
	return match(KindOpenAIAPIKey, s, end)
}

// urlSafeToken matches a [A-Za-z0-9_-]{min,} random part at p.
func urlSafeToken(text []byte, s, p int, kind string, minLen int) (Match, bool) {
	n := run(text, p, mURLSafe, maxToken)
	tok := text[p : p+n]
	if n < minLen || n > maxToken || !mixed(tok) || isPlaceholder(tok) {
		return Match{}, false
	}
	return match(kind, s, p+n)
}

func slackToken(text []byte, s, p int) (Match, bool) {
	n := run(text, p, mSlack, maxToken)
	tok := text[p : p+n]
	if n < 10 || n > maxToken || classes(tok)&cDigit == 0 || isPlaceholder(tok) {
		return Match{}, false
	}
	return match(KindSlackToken, s, p+n)
}

// ---- '_' anchor: gh?_, github_pat_, sk_live_, rk_test_, npm_, aws_secret_access_key

func atUnderscore(text []byte, i int) (Match, bool) {
	switch {
	case i >= 3 && text[i-3] == 'g' && text[i-2] == 'h':
		switch text[i-1] {
		case 'p', 'o', 'u', 's', 'r':
			if !leftOK(text, i-3) {
				break
			}
			p := i + 1
			n := run(text, p, mAlnum, maxToken)
			if n >= 36 && n <= maxToken && mixed(text[p:p+n]) && !isPlaceholder(text[p:p+n]) {
				return match(KindGitHubToken, i-3, p+n)
			}
		}
	case i >= 6 && string(text[i-6:i]) == "github":
		if !leftOK(text, i-6) || !hasPrefix(text[i+1:], "pat_") {
			break
		}
		p := i + 1 + len("pat_")
		n := run(text, p, mWord, maxToken)
		if n >= 22 && n <= maxToken && allClasses(text[p:p+n]) && !isPlaceholder(text[p:p+n]) {
			return match(KindGitHubToken, i-6, p+n)
		}
	case i >= 2 && text[i-1] == 'k' && (text[i-2] == 's' || text[i-2] == 'r'):
		if !leftOK(text, i-2) || !(hasPrefix(text[i+1:], "live_") || hasPrefix(text[i+1:], "test_")) {
			break
		}
		p := i + 1 + len("live_")
		n := run(text, p, mAlnum, maxToken)
		if n >= 24 && n <= maxToken && mixed(text[p:p+n]) && !isPlaceholder(text[p:p+n]) {
			return match(KindStripeKey, i-2, p+n)
		}
	case i >= 3 && string(text[i-3:i]) == "npm":
		if !leftOK(text, i-3) {
			break
		}
		p := i + 1
		n := run(text, p, mAlnum, 36)
		if n == 36 && mixed(text[p:p+n]) && !isPlaceholder(text[p:p+n]) {
			return match(KindNPMToken, i-3, p+n)
		}
	case i >= 6 && hasPrefixFold(text[i-6:], "secret_"):
		switch {
		case hasPrefixFold(text[i+1:], "access_key"):
			return awsSecretValue(text, i+len("_access_key"))
		case i >= 10 && hasPrefixFold(text[i-10:], "aws_secret_key"):
			return awsSecretValue(text, i+len("_key"))
		}
	}
	return prefixedToken(text, i)
}

// awsSecretValue matches the value after an AWS secret key label ending at
// p: optional closing quote, '=' or ':' (or ":=", "=>"), optional opening
// quote, then exactly 40 characters of [A-Za-z0-9+/].
func awsSecretValue(text []byte, p int) (Match, bool) {
	if p < len(text) && class[text[p]]&mWord != 0 {
		return Match{}, false // label continues: aws_secret_access_key_file
	}
	p = skipQuote(text, p)
	p = skipSpace(text, p)
	if p >= len(text) || (text[p] != '=' && text[p] != ':') {
		return Match{}, false
	}
	p++
	if p < len(text) && (text[p] == '=' || text[p] == '>') {
		p++
	}
	p = skipSpace(text, p)
	p = skipQuote(text, p)
	n := run(text, p, mB64, 40)
	if n != 40 || (p+n < len(text) && text[p+n] == '=') {
		return Match{}, false
	}
	if !mixed(text[p:p+n]) || isPlaceholder(text[p:p+n]) {
		return Match{}, false
	}
	return match(KindAWSSecretKey, p, p+n)
}

func skipQuote(text []byte, p int) int {
	if p < len(text) && (text[p] == '"' || text[p] == '\'' || text[p] == '`') {
		p++
	}
	return p
}

func skipSpace(text []byte, p int) int {
	for p < len(text) && (text[p] == ' ' || text[p] == '\t') {
		p++
	}
	return p
}

// ---- 'A' anchor: AWS key IDs, Google API keys, SecretAccessKey labels

func atA(text []byte, i int) (Match, bool) {
	if i+4 <= len(text) {
		switch string(text[i+1 : i+4]) {
		case "KIA", "SIA", "BIA", "CCA":
			return awsKeyID(text, i)
		case "Iza":
			return googleKey(text, i)
		case "KCp":
			return fixedRun(text, i, i+4, KindArtifactory, mAlnum, 69, 69)
		case "BSK":
			return paddedRun(text, i, i+4, KindAWSBedrock, mB64, 109, 269, 2)
		}
	}
	if i >= 6 && hasPrefix(text[i+1:], "ccessKey") && hasPrefixFold(text[i-6:], "secret") {
		return awsSecretValue(text, i+len("AccessKey"))
	}
	return Match{}, false
}

func awsKeyID(text []byte, s int) (Match, bool) {
	e := s + 20
	if e > len(text) || !leftOK(text, s) || (e < len(text) && class[text[e]]&mWord != 0) {
		return Match{}, false
	}
	if run(text, s+4, mUpDig, 16) < 16 || isPlaceholder(text[s+4:e]) {
		return Match{}, false
	}
	return match(KindAWSAccessKeyID, s, e)
}

func googleKey(text []byte, s int) (Match, bool) {
	p := s + len("AIza")
	if !leftOK(text, s) || run(text, p, mURLSafe, 35) != 35 {
		return Match{}, false
	}
	if !mixed(text[p:p+35]) || isPlaceholder(text[p:p+35]) {
		return Match{}, false
	}
	return match(KindGoogleAPIKey, s, p+35)
}

// ---- 'J' anchor: JSON Web Tokens

func atJ(text []byte, i int) (Match, bool, int) {
	if i < 2 || text[i-1] != 'y' || text[i-2] != 'e' {
		return Match{}, false, 0
	}
	s := i - 2
	// header.payload.signature; no length limit (tokens of several KB
	// exist). On failure, every later "eyJ" inside the header run shares
	// the same run end and continuation, so it would fail the same way:
	// resume after the header run. Each run is thus scanned at most three
	// times and the scan stays linear.
	p := s
	var headerEnd int
	for part := 0; part < 3; part++ {
		n := run(text, p, mURLSafe, len(text))
		if part == 0 {
			headerEnd = p + n
		}
		if part < 2 {
			if n < 13 || !hasPrefix(text[p:], "eyJ") || p+n >= len(text) || text[p+n] != '.' {
				if part == 0 && hasPrefix(text[s:], "eyJrIjoi") {
					if m, ok := paddedRun(text, s, s+len("eyJrIjoi"), KindGrafana, mAlnum, 70, 400, 3); ok {
						return m, true, 0
					}
				}
				return Match{}, false, headerEnd
			}
			p += n + 1
			continue
		}
		if n < 10 || isPlaceholder(text[p:p+n]) {
			return Match{}, false, headerEnd
		}
		p += n
	}
	return Match{Kind: KindJWT, Start: s, End: p}, true, 0
}

// ---- ':' anchor: URLs with credentials, Slack webhooks

const maxUserInfo = 256

func atColon(text []byte, i int) (Match, bool) {
	if !hasPrefix(text[i+1:], "//") {
		return atAssign(text, i)
	}
	if i == 0 || class[text[i-1]]&mAlnum == 0 {
		return Match{}, false
	}
	p := i + 3
	if hasPrefix(text[p:], "hooks.slack.com/services/") {
		return slackWebhook(text, i, p+len("hooks.slack.com/services/"))
	}
	// scheme://user:password@host
	u := p
	for p < len(text) && p-u <= maxUserInfo && userChar(text[p]) {
		p++
	}
	if p >= len(text) || text[p] != ':' {
		return Match{}, false
	}
	user := text[u:p]
	p++
	w := p
	for p < len(text) && p-w <= maxUserInfo && passChar(text[p]) {
		p++
	}
	if p == w || p+1 >= len(text) || text[p] != '@' {
		return Match{}, false
	}
	if c := text[p+1]; class[c]&mAlnum == 0 && c != '[' {
		return Match{}, false
	}
	host := text[p+1:]
	host = host[:run(host, 0, mURLSafe|cDot, 255)]
	if passwordPlaceholder(text[w:p], user) || containsFold(host, "example") {
		return Match{}, false
	}
	return match(KindURLPassword, w, p)
}

func slackWebhook(text []byte, colon, p int) (Match, bool) {
	var s int
	switch {
	case colon >= 5 && string(text[colon-5:colon]) == "https":
		s = colon - 5
	case colon >= 4 && string(text[colon-4:colon]) == "http":
		s = colon - 4
	default:
		return Match{}, false
	}
	for _, lead := range [...]byte{'T', 'B'} {
		if p >= len(text) || text[p] != lead {
			return Match{}, false
		}
		n := run(text, p, mUpDig, 64)
		if n < 6 || n > 64 || p+n >= len(text) || text[p+n] != '/' {
			return Match{}, false
		}
		p += n + 1
	}
	n := run(text, p, mAlnum, maxToken)
	if n < 16 || n > maxToken || isPlaceholder(text[p:p+n]) {
		return Match{}, false
	}
	return match(KindSlackWebhook, s, p+n)
}

// userChar reports whether c may appear in the user part of a URL's
// userinfo as we accept it.
func userChar(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return false
	}
	switch c {
	case ':', '@', '/', '?', '#', '"', '\'', '`', '\\', '<', '>', '[', ']', '{', '}', '(', ')', '|':
		return false
	}
	return true
}

// passChar reports whether c may appear in a URL password as we accept it.
// '<', '>', '{', '}' and '$' are allowed so that the placeholder check can
// see and reject "<password>" and "${DB_PASSWORD}".
func passChar(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return false
	}
	switch c {
	case '@', '/', '?', '#', '"', '\'', '`', '\\':
		return false
	}
	return true
}

var passwordWords = [...]string{
	"pass", "pwd", "secret", "token", "changeme", "changeit", "hidden",
	"foo", "bar", "baz", "test", "dummy", "fake", "sample", "placeholder",
}

func isHex(c byte) bool {
	return class[c]&cDigit != 0 || ('a' <= lower(c) && lower(c) <= 'f')
}

// passwordPlaceholder reports whether pw, the password of a URL with user
// name user, is a placeholder, a well-known default or too short to matter.
func passwordPlaceholder(pw, user []byte) bool {
	if len(pw) < 4 || isPlaceholder(pw) || bytes.EqualFold(pw, user) {
		return true
	}
	switch pw[0] {
	case '$', '*', '.':
		return true // $VAR, ${VAR}, $(cmd), ***, ...
	case '%':
		if len(pw) < 3 || !isHex(pw[1]) || !isHex(pw[2]) {
			return true // a format verb (%s, %v, %[1]s, %(pw)s), not %XX
		}
	}
	if bytes.ContainsAny(pw, "{}") {
		return true // {{ .Password }}
	}
	// Only letters and separators: a word such as "mypassword" or
	// "DB_PASS" is a placeholder when it names a password.
	for _, c := range pw {
		if class[c]&(cLower|cUpper|cUnder|cDash|cDot) == 0 {
			return false
		}
	}
	for _, w := range passwordWords {
		if containsFold(pw, w) {
			return true
		}
	}
	return false
}
