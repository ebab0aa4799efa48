package secrets

import (
	"bytes"
	"math"
	"strings"
	"sync"
)

// Keyword-anchored assignments: a key named like a credential (password,
// token, api_key, client_secret, AccountKey, X-Api-Key, Authorization…),
// an assignment (= : := => and the quotes around JSON keys), and a value
// that looks random. The value alone is the match.

// keyKind says what a key names.
type keyKind int

const (
	keyNone keyKind = iota
	keyPassword
	keySecret
	keyAuth // an Authorization header: a scheme word may come first
)

const (
	maxKey   = 64   // bytes of a key looked at
	maxValue = 1024 // a longer value is data, not a credential
)

// atAssign looks at an assignment operator at i.
func atAssign(text []byte, i int) (Match, bool) {
	v, ok := assignOperator(text, i)
	if !ok {
		return Match{}, false
	}
	ks, ke := keyBefore(text, i)
	if ks == ke {
		return Match{}, false
	}
	kind, word := classifyKey(text[ks:ke])
	if kind == keyNone {
		return Match{}, false
	}
	query := ks > 0 && (text[ks-1] == '?' || text[ks-1] == '&')
	m, ok := assignedValue(text, v, kind, query)
	if ok && containsFold(text[m.Start:m.End], word) {
		return Match{}, false // names itself: encryptionKey: encryptionKey1024
	}
	return m, ok
}

// assignOperator checks the operator at i and returns where its value
// begins: comparisons (==, !=, <=, >=), Rust and C++ paths (::) and URLs
// (://) are not assignments; := and => are.
func assignOperator(text []byte, i int) (int, bool) {
	next := byte(0)
	if i+1 < len(text) {
		next = text[i+1]
	}
	prev := byte(0)
	if i > 0 {
		prev = text[i-1]
	}
	switch text[i] {
	case '=':
		switch {
		case next == '=' || prev == '=' || prev == '!' || prev == '<' || prev == '>' || prev == ':':
			return 0, false
		case next == '>':
			return i + 2, true
		}
	case ':':
		switch {
		case next == ':' || prev == ':' || next == '/':
			return 0, false
		case next == '=':
			return i + 2, true
		}
	}
	return i + 1, true
}

// keySuffixes are the endings of keys that name a credential, letters
// and digits only, in lower case, by their last letter (see classifyKey).
// Read-only.
var keySuffixes = [256][]string{
	'd': {"password", "passwd", "pwd"},
	'e': {"passphrase"},
	's': {"pass", "credentials", "creds"},
	't': {"secret"},
	'n': {"token", "authorization"},
	'y': {"apikey", "accesskey", "secretkey", "privatekey", "accountkey", "signingkey", "encryptionkey", "masterkey", "authkey", "clientkey", "subscriptionkey"},
	'l': {"credential"},
	'h': {"auth"},
}

// keyEnding reports whether a key ending with c may name a credential
// (see classifyKey).
func keyEnding(c byte) bool { return keySuffixes[lower(c)] != nil }

// keyPair reports whether the key that ends at end, its last byte a
// keyEnding, may end with one of keySuffixes by its last two letters or
// digits (the separators between them skipped): most keys keyEnding lets
// through (created, sources, replaced_by) are ruled out here, before the
// key is walked back and classified.
func keyPair(text []byte, end int) bool {
	j := end - 2
	for j >= 0 && class[text[j]]&(cUnder|cDash|cDot) != 0 {
		if end-2-j >= maxKey {
			return false // longer than any key keyBefore takes
		}
		j--
	}
	if j < 0 || class[text[j]]&mAlnum == 0 {
		return false // one letter: shorter than any suffix
	}
	prev := lower(text[j])
	for _, sfx := range keySuffixes[lower(text[end-1])] {
		if sfx[len(sfx)-2] == prev {
			return true
		}
	}
	return false
}

// keyBefore returns the key that ends before the operator at i: after
// white space and a closing quote (JSON), a run of letters, digits, '_',
// '-' and '.' that starts at a word boundary.
func keyBefore(text []byte, i int) (int, int) {
	k := i
	for n := 0; k > 0 && n < 4 && (text[k-1] == ' ' || text[k-1] == '\t'); n++ {
		k--
	}
	if k > 0 && (text[k-1] == '"' || text[k-1] == '\'' || text[k-1] == '`') {
		k--
	}
	end := k
	if end == 0 || !keyEnding(text[end-1]) || !keyPair(text, end) {
		return end, end // decided by its last letters: no walk back
	}
	for k > 0 && end-k < maxKey && (class[text[k-1]]&(mURLSafe|cDot) != 0) {
		k--
	}
	if k > 0 && class[text[k-1]]&(mURLSafe|cDot) != 0 {
		return end, end // longer than any key we know
	}
	return k, end
}

// classifyKey tells a key by how it ends, letters and digits only, in
// lower case: DB_PASSWORD, client-secret, X-Api-Key, AccountKey,
// authToken, Authorization (the endings are keySuffixes). Most keys never
// come here: keyBefore rules them out by their last two letters, at every
// colon of a text.
func classifyKey(key []byte) (keyKind, string) {
	last := len(key) - 1
	for last >= 0 && class[key[last]]&mAlnum == 0 {
		last--
	}
	if last < 0 {
		return keyNone, ""
	}
	suffixes := keySuffixes[lower(key[last])]
	if suffixes == nil {
		return keyNone, ""
	}
	var buf [maxKey]byte
	n := 0
	for _, c := range key {
		if class[c]&mAlnum != 0 {
			buf[n] = lower(c)
			n++
		}
	}
	k := buf[:n]
	for _, sfx := range suffixes {
		if !bytes.HasSuffix(k, []byte(sfx)) {
			continue
		}
		switch sfx {
		case "authorization":
			return keyAuth, sfx
		case "password", "passwd", "passphrase":
			return keyPassword, sfx
		case "pwd", "pass":
			// Alone, PWD is the working directory and PASS a test's
			// verdict ("--- PASS: TestX"); as a suffix (DB_PASS, db_pwd)
			// they name passwords.
			if len(k) == len(sfx) || bytes.HasSuffix(k, []byte("bypass")) || bytes.HasSuffix(k, []byte("compass")) || bytes.HasSuffix(k, []byte("surpass")) {
				return keyNone, ""
			}
			return keyPassword, sfx
		case "token":
			for _, not := range [...]string{"csrftoken", "xsrftoken", "pagetoken", "nexttoken", "continuationtoken", "cursortoken", "synctoken"} {
				if bytes.HasSuffix(k, []byte(not)) {
					return keyNone, ""
				}
			}
		}
		return keySecret, sfx
	}
	return keyNone, ""
}

// assignedValue reads the value at v and matches it if it looks like a
// credential for a key of kind.
func assignedValue(text []byte, v int, kind keyKind, query bool) (Match, bool) {
	v = skipSpace(text, v)
	s, e, quoted := valueSpan(text, v, query)
	if kind == keyAuth {
		// "Authorization": "Bearer …" (JSON, a dict) as well as a
		// header line: the credential after the scheme, within the quotes.
		cs, ce := authCredential(text, s, e)
		if quoted && ce > e {
			ce = e
		}
		s, e = cs, ce
	}
	if s >= e || e-s > maxValue {
		return Match{}, false
	}
	val := text[s:e]
	ok := false
	switch kind {
	case keyPassword:
		ok = passwordLike(val)
	case keySecret, keyAuth:
		ok = tokenLike(val)
	}
	if !ok {
		return Match{}, false
	}
	return match(kindOf(kind), s, e)
}

func kindOf(k keyKind) string {
	switch k {
	case keyPassword:
		return KindPassword
	case keyAuth:
		return KindAuthHeader
	}
	return KindSecretValue
}

// valueSpan returns the value at v: up to the closing quote when it is
// quoted (on the same line), else up to white space, a quote or a
// delimiter (& and # too in a query string); a sentence's final full stop
// is not part of it.
func valueSpan(text []byte, v int, query bool) (int, int, bool) {
	if v < len(text) && (text[v] == '"' || text[v] == '\'' || text[v] == '`') {
		q := text[v]
		for e := v + 1; e < len(text) && e-v <= maxValue+1; e++ {
			switch text[e] {
			case q:
				return v + 1, e, true
			case '\n':
				return v + 1, v + 1, true
			}
		}
		return v + 1, v + 1, true
	}
	e := v
	for e < len(text) && e-v <= maxValue && !endsValue(text[e], query) {
		e++
	}
	for e > v && (text[e-1] == '.' || text[e-1] == ',' || text[e-1] == ':') {
		e--
	}
	return v, e, false
}

func endsValue(c byte, query bool) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ',', ';', ')', ']', '}', '<', '>', '\\':
		return true
	case '&', '#':
		return query
	}
	return c < 0x20 || c == 0x7f
}

// authCredential skips an Authorization header's scheme (Bearer, Basic,
// Token) and returns the credential after it.
func authCredential(text []byte, s, e int) (int, int) {
	for _, scheme := range [...]string{"bearer", "basic", "token", "digest"} {
		if hasPrefixFold(text[s:], scheme) && s+len(scheme) < len(text) && (text[s+len(scheme)] == ' ' || text[s+len(scheme)] == '\t') {
			c := skipSpace(text, s+len(scheme))
			end := c
			for end < len(text) && end-c <= maxValue && (class[text[end]]&(mURLSafe|cDot|cPlusSlash) != 0 || text[end] == '~' || text[end] == '=') {
				end++
			}
			return c, end
		}
	}
	return s, e
}

// passwordLike: at least 8 bytes, letters with digits or symbols (not
// just the separators of names and paths: - _ . / :), no white space (that
// is prose), and not a placeholder, a variable, a template or code.
func passwordLike(v []byte) bool {
	if len(v) < 8 || placeholderValue(v) || codeLike(v) || bytes.ContainsAny(v, " \t") {
		return false
	}
	u := classes(v)
	symbols := false
	for _, c := range v {
		if class[c]&(mAlnum|cUnder|cDash|cDot) == 0 && c != '/' && c != ':' {
			symbols = true
			break
		}
	}
	return u&mLetter != 0 && (u&cDigit != 0 || symbols) && entropy(v) >= 2.5
}

// tokenLike: at least 12 bytes that look random: letters and digits, a
// run of 10 alphanumerics that mixes them (or a UUID), and Shannon entropy
// of at least 3 bits a byte; not a placeholder, a variable, a template or
// code.
func tokenLike(v []byte) bool {
	if len(v) < 12 || placeholderValue(v) || codeLike(v) || !hasLettersAndDigits(v) || bytes.ContainsAny(v, " \t") {
		return false
	}
	if isUUID(v) {
		return true
	}
	return hasRandomRun(v, 10) && entropy(v) >= 3
}

// hasRandomRun reports whether v has a run of at least n letters and
// digits that holds both.
func hasRandomRun(v []byte, n int) bool {
	for k := 0; k < len(v); {
		r := run(v, k, mAlnum, len(v))
		if r >= n && hasLettersAndDigits(v[k:k+r]) {
			return true
		}
		k += r + 1
	}
	return false
}

func isUUID(v []byte) bool {
	if len(v) != 36 {
		return false
	}
	for i, c := range v {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if class[c]&mHex == 0 {
				return false
			}
		}
	}
	return true
}

// placeholderValue: documentation values and references to elsewhere —
// $VAR, ${VAR}, %s, {{ … }}, <…>, […], ***, …, null, EXAMPLE, xxxx,
// your_…, changeme, fake, anything naming a password, a secret or a token. One
// pass, as isPlaceholder.
func placeholderValue(v []byte) bool {
	if isPlaceholder(v) {
		return true
	}
	switch v[0] {
	case '$', '%', '{', '[', '(', '*', '@', '!', '&', ':', '/':
		return true
	}
	for i, c := range v {
		var hit bool
		switch lower(c) {
		case '{':
			hit = hasPrefix(v[i:], "{{")
		case '$':
			hit = hasPrefix(v[i:], "${") || hasPrefix(v[i:], "$(")
		case '.':
			hit = hasPrefix(v[i:], "...")
		case 0xe2:
			hit = hasPrefix(v[i:], "…")
		case 'p':
			hit = hasPrefixFold(v[i:], "passw") || hasPrefixFold(v[i:], "p@ss") || hasPrefixFold(v[i:], "p4ss") || hasPrefixFold(v[i:], "placeholder")
		case 'y':
			hit = hasPrefixFold(v[i:], "your")
		case 'c':
			hit = hasPrefixFold(v[i:], "changeme") || hasPrefixFold(v[i:], "changeit")
		case 'd':
			hit = hasPrefixFold(v[i:], "dummy")
		case 'f':
			hit = hasPrefixFold(v[i:], "fake")
		case 's':
			hit = hasPrefixFold(v[i:], "sample") || hasPrefixFold(v[i:], "secret") || hasPrefixFold(v[i:], "ssword")
		case 't':
			hit = hasPrefixFold(v[i:], "token")
		}
		if hit {
			return true
		}
	}
	for _, w := range [...]string{"null", "none", "nil", "true", "false", "undefined", "required", "optional"} {
		if len(v) == len(w) && hasPrefixFold(v, w) {
			return true
		}
	}
	return false
}

// codeLike: an expression rather than a value: a call, an index
// (os.Args[4]), another assignment (a=b=c), or a dotted name (os.environ,
// config.apiKey, process.env.TOKEN).
func codeLike(v []byte) bool {
	if bytes.ContainsAny(v, "()[") || bytes.Contains(v, []byte("->")) || bytes.Contains(v, []byte("::")) {
		return true
	}
	if i := bytes.IndexByte(v, '='); i >= 0 && strings.TrimRight(string(v[i:]), "=") != "" {
		return true // a = inside, not padding: a chain of assignments
	}
	if bytes.IndexByte(v, '.') < 0 {
		return false
	}
	for _, part := range bytes.Split(v, []byte{'.'}) {
		if len(part) == 0 || class[part[0]]&(mLetter|cUnder) == 0 || run(part, 0, mWord, len(part)) != len(part) {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of v in bits a byte: log2(n) less the
// mean of c·log2(c) over the counts c of its bytes. v is at most maxValue
// bytes long (its callers' bound), so a table holds every c·log2(c).
func entropy(v []byte) float64 {
	if len(v) == 0 || len(v) > maxValue {
		return 0
	}
	var counts [256]uint16
	for _, c := range v {
		counts[c]++
	}
	t := xlog2x()
	sum := 0.0
	for _, c := range v {
		if k := counts[c]; k > 0 {
			sum += t[k]
			counts[c] = 0
		}
	}
	n := len(v)
	return t[n]/float64(n) - sum/float64(n)
}

// xlog2x()[k] is k·log2(k): a read-only table built on first use, not at
// every command's start (a once-value, not mutable state).
var xlog2x = sync.OnceValue(func() *[maxValue + 1]float64 {
	var t [maxValue + 1]float64
	for k := 1; k <= maxValue; k++ {
		t[k] = float64(k) * math.Log2(float64(k))
	}
	return &t
})
