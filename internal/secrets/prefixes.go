package secrets

import "sync"

// Tokens that name their issuer with a prefix ending in '_', '-' or '.'
// (hf_, dop_v1_, glrt-, SG., hvs., …): one table, looked up at the
// separator by the byte before it, so that the many separators of
// ordinary text cost a lookup in a small list.

// tokenSpec is one issuer's token format: the prefix as issued (ending
// with its separator), then a random part of alphabet with a length in
// [min, max] and up to pad '=' after it, or a shape tail checks.
type tokenSpec struct {
	prefix   string
	kind     string
	alphabet uint8
	min, max int
	pad      int
	after    string                               // fixed text right after the prefix, part of the token
	tail     func(text []byte, p int) (int, bool) // composite shapes: the token's end from p
	fold     bool                                 // prefix compared ignoring ASCII case
}

func tokenSpecs() []tokenSpec {
	gl := func(prefix string, n int) tokenSpec {
		return tokenSpec{prefix: prefix, kind: KindGitLabToken, alphabet: mURLSafe, min: n, max: n}
	}
	return []tokenSpec{
		{prefix: "hf_", kind: KindHuggingFace, alphabet: mLetter, min: 34, max: 34},
		{prefix: "api_org_", kind: KindHuggingFace, alphabet: mLetter, min: 34, max: 34},
		{prefix: "dop_v1_", kind: KindDigitalOcean, alphabet: mHex, min: 64, max: 64},
		{prefix: "doo_v1_", kind: KindDigitalOcean, alphabet: mHex, min: 64, max: 64},
		{prefix: "dor_v1_", kind: KindDigitalOcean, alphabet: mHex, min: 64, max: 64},
		{prefix: "duffel_test_", kind: KindDuffel, alphabet: mURLSafe, min: 43, max: 43, pad: 1},
		{prefix: "duffel_live_", kind: KindDuffel, alphabet: mURLSafe, min: 43, max: 43, pad: 1},
		{prefix: "lin_api_", kind: KindLinear, alphabet: mAlnum, min: 40, max: 40},
		{prefix: "glc_", kind: KindGrafana, alphabet: mB64, min: 32, max: 400, pad: 3},
		{prefix: "glsa_", kind: KindGrafana, tail: grafanaServiceAccount},
		{prefix: "pnu_", kind: KindPrefect, alphabet: mAlnum, min: 36, max: 36},
		{prefix: "rdme_", kind: KindReadme, alphabet: cLower | cDigit, min: 70, max: 70},
		{prefix: "rubygems_", kind: KindRubyGems, alphabet: mHex, min: 48, max: 48},
		{prefix: "sntryu_", kind: KindSentry, alphabet: mHex, min: 64, max: 64},
		{prefix: "sntrys_", kind: KindSentry, after: "eyJ", alphabet: mB64 | cUnder, min: 100, max: 600, pad: 2},
		{prefix: "sm_pat_", kind: KindSettleMint, alphabet: mAlnum, min: 16, max: 16},
		{prefix: "sm_aat_", kind: KindSettleMint, alphabet: mAlnum, min: 16, max: 16},
		{prefix: "sm_sat_", kind: KindSettleMint, alphabet: mAlnum, min: 16, max: 16},
		{prefix: "shippo_live_", kind: KindShippo, alphabet: mHex, min: 40, max: 40},
		{prefix: "shippo_test_", kind: KindShippo, alphabet: mHex, min: 40, max: 40},
		{prefix: "shpat_", kind: KindShopify, alphabet: mHex, min: 32, max: 32},
		{prefix: "shpca_", kind: KindShopify, alphabet: mHex, min: 32, max: 32},
		{prefix: "shppa_", kind: KindShopify, alphabet: mHex, min: 32, max: 32},
		{prefix: "shpss_", kind: KindShopify, alphabet: mHex, min: 32, max: 32},
		{prefix: "sgp_", kind: KindSourcegraph, tail: sourcegraph},
		{prefix: "pscale_tkn_", kind: KindPlanetScale, alphabet: mURLSafe | cDot, min: 32, max: 64, pad: 2},
		{prefix: "pscale_oauth_", kind: KindPlanetScale, alphabet: mURLSafe | cDot, min: 32, max: 64, pad: 2},
		{prefix: "pscale_pw_", kind: KindPlanetScale, alphabet: mURLSafe | cDot, min: 32, max: 64, pad: 2},
		{prefix: "ntn_", kind: KindNotion, tail: notion},
		{prefix: "fo1_", kind: KindFlyIO, alphabet: mURLSafe, min: 43, max: 43},
		{prefix: "fm1a_", kind: KindFlyIO, alphabet: mB64, min: 100, max: 4096, pad: 3},
		{prefix: "fm1r_", kind: KindFlyIO, alphabet: mB64, min: 100, max: 4096, pad: 3},
		{prefix: "fm2_", kind: KindFlyIO, alphabet: mB64, min: 100, max: 4096, pad: 3},
		{prefix: "CLOJARS_", kind: KindClojars, alphabet: mAlnum, min: 60, max: 60, fold: true},
		{prefix: "ops_", kind: KindOnePassword, after: "eyJ", alphabet: mB64, min: 250, max: 4096, pad: 3},

		{prefix: "pplx-", kind: KindPerplexity, alphabet: mAlnum, min: 48, max: 48},
		{prefix: "ico-", kind: KindInfracost, alphabet: mAlnum, min: 32, max: 32},
		{prefix: "pul-", kind: KindPulumi, alphabet: mHex, min: 40, max: 40},
		{prefix: "fio-u-", kind: KindFrameIO, alphabet: mURLSafe, min: 64, max: 64, pad: 1},
		{prefix: "tk-us-", kind: KindScalingo, alphabet: mURLSafe, min: 48, max: 48},
		{prefix: "HRKU-", after: "AA", kind: KindHeroku, alphabet: mURLSafe, min: 58, max: 58},
		{prefix: "PMAK-", kind: KindPostman, tail: postman},
		{prefix: "NRAK-", kind: KindNewRelic, alphabet: cUpper | cDigit, min: 27, max: 27},
		{prefix: "NRII-", kind: KindNewRelic, alphabet: mAlnum | cDash, min: 32, max: 32},
		{prefix: "NRJS-", kind: KindNewRelic, alphabet: mHex, min: 19, max: 19},
		{prefix: "API-", kind: KindOctopus, alphabet: cUpper | cDigit, min: 26, max: 26},
		{prefix: "key-", kind: KindMailgun, alphabet: mHex, min: 32, max: 32},
		{prefix: "sq0atp-", kind: KindSquare, alphabet: mURLSafe, min: 22, max: 60},
		{prefix: "sq0csp-", kind: KindSquare, alphabet: mURLSafe, min: 22, max: 60},
		{prefix: "GOCSPX-", kind: KindGoogleOAuth, alphabet: mURLSafe, min: 28, max: 28},
		{prefix: "FLWSECK_TEST-", kind: KindFlutterwave, tail: flutterwave},
		{prefix: "FLWSECK-", kind: KindFlutterwave, tail: flutterwave},
		{prefix: "AGE-SECRET-KEY-", kind: KindAgeSecretKey, tail: ageKey},
		{prefix: "v1.0-", kind: KindCloudflareCA, tail: cloudflareCA},
		gl("gldt-", 20), gl("glrt-", 20), gl("glft-", 20), gl("glsoat-", 20), gl("glffct-", 20),
		gl("glimt-", 25), gl("glagent-", 50), gl("gloas-", 64),
		{prefix: "glptt-", kind: KindGitLabToken, alphabet: mHex, min: 40, max: 40},
		{prefix: "glcbt-", kind: KindGitLabToken, tail: gitlabJob},

		{prefix: "SG.", kind: KindSendGrid, tail: sendgrid},
		{prefix: "dp.pt.", kind: KindDoppler, alphabet: mAlnum, min: 43, max: 43},
		{prefix: "hvs.", kind: KindVault, alphabet: mURLSafe, min: 90, max: 120},
		{prefix: "hvb.", kind: KindVault, alphabet: mURLSafe, min: 138, max: 300},
		{prefix: "ya29.", kind: KindGoogleOAuth, alphabet: mURLSafe, min: 30, max: 2048},
		{prefix: "dt0c01.", kind: KindDynatrace, tail: dynatrace},
		{prefix: "sk.", after: "eyJ", kind: KindMapbox, alphabet: mURLSafe | cDot, min: 80, max: 400},
	}
}

// specIndex is tokenSpecs() and their index: index maps a separator and
// the two bytes before it to the specs whose prefix ends that way (hashed
// into 256 buckets; an entry keeps the two bytes, so that a collision
// costs two comparisons). Most separators of ordinary text find an empty
// bucket.
type specIndex struct {
	specs []tokenSpec
	index [3][256][]indexEntry
}

// tokenIndex builds the specs and their index on first use, not at every
// command's start; read-only after (a once-value, not mutable state).
var tokenIndex = sync.OnceValue(func() *specIndex {
	x := &specIndex{specs: tokenSpecs()}
	for k, s := range x.specs {
		n := len(s.prefix)
		sep := sepIndex(s.prefix[n-1])
		for _, b2 := range cases(s.prefix[n-3], s.fold) {
			for _, b1 := range cases(s.prefix[n-2], s.fold) {
				h := bucket(b2, b1)
				x.index[sep][h] = append(x.index[sep][h], indexEntry{b2, b1, k})
			}
		}
	}
	return x
})

type indexEntry struct {
	b2, b1 byte
	spec   int
}

// cases is c, and its other letter case when fold is set.
func cases(c byte, fold bool) []byte {
	if fold && lower(c) != c {
		return []byte{c, lower(c)}
	}
	return []byte{c}
}

func bucket(b2, b1 byte) byte { return byte((uint(b2)*31 + uint(b1)) * 0x9e >> 3) }

// prefixedToken matches a token whose prefix ends with the separator at i.
func prefixedToken(text []byte, i int) (Match, bool) {
	// A token's random part follows its separator at once: a full stop
	// or a dash before a space ends the look here.
	if i < 2 || i+1 >= len(text) || class[text[i+1]]&(mURLSafe|cPlusSlash) == 0 {
		return Match{}, false
	}
	b2, b1 := text[i-2], text[i-1]
	x := tokenIndex()
	for _, e := range x.index[sepIndex(text[i])][bucket(b2, b1)] {
		if e.b2 != b2 || e.b1 != b1 {
			continue
		}
		s := &x.specs[e.spec]
		start := i + 1 - len(s.prefix)
		if start < 0 || !leftOK(text, start) {
			continue
		}
		if s.fold && !hasPrefixFold(text[start:], lowerString(s.prefix)) || !s.fold && !hasPrefix(text[start:], s.prefix) {
			continue
		}
		if m, ok := s.match(text, start, i+1); ok {
			return m, true
		}
	}
	return Match{}, false
}

func lowerString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

// match checks the random part at p, after the prefix that starts at s.
func (sp *tokenSpec) match(text []byte, s, p int) (Match, bool) {
	if !hasPrefix(text[p:], sp.after) {
		return Match{}, false
	}
	p += len(sp.after)
	if sp.tail != nil {
		end, ok := sp.tail(text, p)
		if !ok || isPlaceholder(text[p:end]) {
			return Match{}, false
		}
		return match(sp.kind, s, end)
	}
	return paddedRun(text, s, p, sp.kind, sp.alphabet, sp.min, sp.max, sp.pad)
}

// fixedRun matches, at p, min to max bytes of alphabet that look random,
// not followed by another byte of it; the match starts at s.
func fixedRun(text []byte, s, p int, kind string, alphabet uint8, min, max int) (Match, bool) {
	return paddedRun(text, s, p, kind, alphabet, min, max, 0)
}

// paddedRun is fixedRun followed by up to pad '=' characters.
func paddedRun(text []byte, s, p int, kind string, alphabet uint8, min, max, pad int) (Match, bool) {
	if !leftOK(text, s) {
		return Match{}, false
	}
	n := run(text, p, alphabet, max)
	if n < min || n > max || !random(text[p:p+n]) {
		return Match{}, false
	}
	end := p + n
	for k := 0; k < pad && end < len(text) && text[end] == '='; k++ {
		end++
	}
	if end < len(text) && class[text[end]]&mAlnum != 0 {
		return Match{}, false // glued to more text
	}
	return match(kind, s, end)
}

// random reports whether tok, a token's random part, looks random rather
// than like a placeholder: two of upper case, lower case and digits, and
// no placeholder pattern.
func random(tok []byte) bool {
	return mixed(tok) && !isPlaceholder(tok)
}

// runOf is the length of the run of alphabet at p, if it is exactly n.
func runOf(text []byte, p int, alphabet uint8, n int) bool {
	return run(text, p, alphabet, n) == n
}

func sendgrid(text []byte, p int) (int, bool) {
	if !runOf(text, p, mURLSafe, 22) || p+22 >= len(text) || text[p+22] != '.' || !runOf(text, p+23, mURLSafe, 43) {
		return 0, false
	}
	return p + 66, random(text[p : p+66])
}

func dynatrace(text []byte, p int) (int, bool) {
	if !runOf(text, p, mAlnum, 24) || p+24 >= len(text) || text[p+24] != '.' || !runOf(text, p+25, mAlnum, 64) {
		return 0, false
	}
	return p + 89, random(text[p : p+89])
}

func postman(text []byte, p int) (int, bool) {
	if !runOf(text, p, mHex, 24) || p+24 >= len(text) || text[p+24] != '-' || !runOf(text, p+25, mHex, 34) {
		return 0, false
	}
	return p + 59, random(text[p : p+59])
}

func grafanaServiceAccount(text []byte, p int) (int, bool) {
	if !runOf(text, p, mAlnum, 32) || p+32 >= len(text) || text[p+32] != '_' || !runOf(text, p+33, mHex, 8) {
		return 0, false
	}
	return p + 41, random(text[p : p+32])
}

func sourcegraph(text []byte, p int) (int, bool) {
	if hasPrefix(text[p:], "local_") {
		p += len("local_")
	} else if runOf(text, p, mHex, 16) && p+16 < len(text) && text[p+16] == '_' {
		p += 17
	}
	if !runOf(text, p, mHex, 40) {
		return 0, false
	}
	return p + 40, random(text[p : p+40])
}

func notion(text []byte, p int) (int, bool) {
	if !runOf(text, p, cDigit, 11) || !runOf(text, p, mAlnum, 46) {
		return 0, false
	}
	return p + 46, random(text[p+11 : p+46])
}

func flutterwave(text []byte, p int) (int, bool) {
	if !runOf(text, p, mHex, 32) || !hasPrefix(text[p+32:], "-X") {
		return 0, false
	}
	return p + 34, random(text[p : p+32])
}

// ageKey: "1" and 58 characters of bech32 (upper case and digits).
func ageKey(text []byte, p int) (int, bool) {
	if p >= len(text) || text[p] != '1' || !runOf(text, p, mUpDig, 59) {
		return 0, false
	}
	return p + 59, random(text[p+1 : p+59])
}

func cloudflareCA(text []byte, p int) (int, bool) {
	if !runOf(text, p, mHex, 24) || p+24 >= len(text) || text[p+24] != '-' || !runOf(text, p+25, mHex, 146) {
		return 0, false
	}
	return p + 171, random(text[p : p+171])
}

func gitlabJob(text []byte, p int) (int, bool) {
	n := run(text, p, mAlnum, 5)
	if n < 1 || n > 5 || p+n >= len(text) || text[p+n] != '_' || !runOf(text, p+n+1, mURLSafe, 20) {
		return 0, false
	}
	return p + n + 21, random(text[p+n+1 : p+n+21])
}

// ---- '.' anchor: the table's dotted prefixes, and Terraform Cloud's
// <14 characters>.atlasv1.<60-70 characters>.

func atDot(text []byte, i int) (Match, bool) {
	if i+1 >= len(text) || class[text[i+1]]&mURLSafe == 0 {
		return Match{}, false // the end of a sentence
	}
	if i >= 8 && string(text[i-7:i]) == "atlasv1" && text[i-8] == '.' {
		return terraform(text, i)
	}
	return prefixedToken(text, i)
}

func terraform(text []byte, i int) (Match, bool) {
	s := i - 8 - 14
	if s < 0 || !runOf(text, s, cLower|cDigit, 14) || !leftOK(text, s) {
		return Match{}, false
	}
	p := i + 1
	n := run(text, p, mURLSafe|cDot, 70)
	for n > 0 && text[p+n-1] == '.' {
		n-- // a sentence's full stop
	}
	if n < 60 || n > 70 || !random(text[p:p+n]) {
		return Match{}, false
	}
	end := p + n
	for end < len(text) && text[end] == '=' {
		end++
	}
	return match(KindTerraform, s, end)
}

// ---- '~' anchor: Azure AD client secrets, <3 characters><digit>Q~<31-34>.

func atTilde(text []byte, i int) (Match, bool) {
	s := i - 5
	if s < 0 || text[i-1] != 'Q' || class[text[i-2]] != cDigit {
		return Match{}, false
	}
	for _, c := range text[s : i-2] {
		if class[c]&mAlnum == 0 && c != '_' && c != '~' && c != '.' {
			return Match{}, false
		}
	}
	if s > 0 && (class[text[s-1]]&mWord != 0 || text[s-1] == '~' || text[s-1] == '.') {
		return Match{}, false
	}
	p := i + 1
	n := 0
	for p+n < len(text) && n <= 34 && (class[text[p+n]]&mURLSafe != 0 || text[p+n] == '~' || text[p+n] == '.') {
		n++
	}
	for n > 31 && text[p+n-1] == '.' {
		n--
	}
	if n < 31 || n > 34 || !random(text[p:p+n]) {
		return Match{}, false
	}
	return match(KindAzureADSecret, s, p+n)
}

// sepIndex numbers the separators of tokenIndex.
func sepIndex(c byte) int {
	switch c {
	case '_':
		return 0
	case '-':
		return 1
	}
	return 2 // '.'
}
