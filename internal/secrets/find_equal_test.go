package secrets

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// referenceFind is Find with the assignment matcher as it was first
// written (referenceAtAssign).
func referenceFind(text []byte) []Match {
	var ms []Match
	ms = scanByte(text, '-', atDash, ms)
	ms = scanByte(text, '_', atUnderscore, ms)
	ms = scanByte(text, '.', atDot, ms)
	ms = scanByte(text, '~', atTilde, ms)
	ms = scanByte(text, ':', referenceAtColon, ms)
	ms = scanByte(text, '=', referenceAtAssign, ms)
	ms = scanByte(text, 'A', atA, ms)
	ms = scanJ(text, ms)
	if len(ms) > 1 {
		ms = normalize(ms)
	}
	return ms
}

// findSeeds are texts with secrets of every kind, glued, overlapping and
// next to their anchors' look-alikes.
func findSeeds() []string {
	seeds := []string{
		"", "ghp_", "-----BEGIN ", "https://a:b@c", "eyJ.eyJ.", "AKIA",
		tokGitHub, tokGitHubPAT, tokGitLab, tokSlack, tokWebhook, tokAnthropic,
		tokOpenAI, tokOpenAIOld, tokGoogle, tokStripe, tokStripeRK, tokNPM, tokPyPI,
		tokJWT, tokAWSID, "aws_secret_access_key=" + tokAWSSecret,
		"SecretAccessKey: " + tokAWSSecret, "pg://u:" + tokURLPass + "@h",
		tokPrivateKey, tokOpenSSHKey, tokPGPKey, keyBegin + "\n" + keyBody,
		tokAWSID + tokJWT, "https://x:" + tokGitHub + "@h",
		"x " + tokJWT + " " + tokAWSID + " " + tokPrivateKey,
		"password: " + mix(16, 80) + "!", "Authorization: Bearer " + mix(40, 81),
		"api_key=" + mix(32, 82), `{"token": "` + mix(40, 83) + `"}`, "X-Api-Key: " + mix(32, 84),
		"?token=" + mix(40, 85) + "&x=1", "AccountKey=" + mix(86, 86) + "==;x=y",
		"password := os.Getenv(\"X\")", "token == nil", "a::b", "k := v",
		"token: " + tokGitHub + tokJWT + "=" + tokAWSID, "password=" + tokGitLab + "~" + tokSlack,
	}
	// Keys split between their last letters, one letter long, at and
	// past the longest key looked at, named like a credential or not.
	for _, key := range []string{"pass_wor-d", "DB.PAS.S", "x-api-ke_y", "Authorizatio.n", "d", "_d", "-s", "a_d", "pwd", "PASS", "bypass", "csrf_token",
		strings.Repeat("a", maxKey-8) + "password", strings.Repeat("a", maxKey-7) + "password", strings.Repeat("_", maxKey) + "d", "created", "sources", "replaced_by"} {
		for _, op := range []string{": ", "=", " := ", `": "`, "=>"} {
			seeds = append(seeds, key+op+mix(24, 87), "x "+key+op+"hunter2hunter2!")
		}
	}
	for _, c := range ruleCases() {
		seeds = append(seeds, c.in, c.negative, c.in+c.in, "key: "+c.in, "password="+c.in)
	}
	return seeds
}

// FuzzFindEqual: Find finds what the eight-pass reference finds, match for
// match and kind for kind.
func FuzzFindEqual(f *testing.F) {
	for _, s := range findSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if got, want := Find(text), referenceFind(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("Find(%q) =\n%+v\nwant\n%+v", text, got, want)
		}
	})
}

// TestFindEqualsReference: on the seeds glued together at random, with
// anchor bytes between them.
func TestFindEqualsReference(t *testing.T) {
	seeds := findSeeds()
	r := rand.New(rand.NewPCG(1, 2))
	found := 0
	for round := 0; round < 20000; round++ {
		var b []byte
		for range 1 + r.IntN(6) {
			b = append(b, seeds[r.IntN(len(seeds))]...)
			seps := " \n:=-_.~AJ\"'"
			from := r.IntN(len(seps))
			b = append(b, seps[from:min(len(seps), from+r.IntN(3))]...)
		}
		if got, want := Find(b), referenceFind(b); !reflect.DeepEqual(got, want) {
			t.Fatalf("Find(%q) =\n%+v\nwant\n%+v", b, got, want)
		}
		found += len(referenceFind(b))
	}
	if found < 10000 {
		t.Fatalf("only %d matches in the glued seeds: they test too little", found)
	}
}

// TestFindEqualsReferenceCorpus: on the bench corpus's files (2,000
// records unless YOIMEM_BENCH_CORPUS names one), every seventh with a seed
// spliced in.
func TestFindEqualsReferenceCorpus(t *testing.T) {
	seeds := findSeeds()
	r := rand.New(rand.NewPCG(3, 4))
	for i, f := range corpusFiles(t, 2000) {
		text := f
		if i%7 == 0 {
			at := r.IntN(len(f) + 1)
			text = append(append(append([]byte{}, f[:at]...), seeds[r.IntN(len(seeds))]...), f[at:]...)
		}
		if got, want := Find(text), referenceFind(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("file %d: Find =\n%+v\nwant\n%+v", i, got, want)
		}
	}
}

// BenchmarkFindReference is BenchmarkFind with referenceFind, to compare
// the two in one run.
func BenchmarkFindReference(b *testing.B) {
	files := corpusFiles(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			referenceFind(f)
		}
	}
}

// The assignment matcher as it was before keySuffixes and keyPair: Find's
// reference uses it at every ':' and '='.

// referenceAtColon is atColon with referenceAtAssign.
func referenceAtColon(text []byte, i int) (Match, bool) {
	if !hasPrefix(text[i+1:], "//") {
		return referenceAtAssign(text, i)
	}
	return atColon(text, i)
}

func referenceAtAssign(text []byte, i int) (Match, bool) {
	v, ok := assignOperator(text, i)
	if !ok {
		return Match{}, false
	}
	ks, ke := referenceKeyBefore(text, i)
	if ks == ke {
		return Match{}, false
	}
	kind, word := referenceClassifyKey(text[ks:ke])
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

func referenceKeyEnding(c byte) bool {
	switch lower(c) {
	case 'd', 'e', 's', 't', 'n', 'y', 'l', 'h':
		return true
	}
	return false
}

func referenceKeyBefore(text []byte, i int) (int, int) {
	k := i
	for n := 0; k > 0 && n < 4 && (text[k-1] == ' ' || text[k-1] == '\t'); n++ {
		k--
	}
	if k > 0 && (text[k-1] == '"' || text[k-1] == '\'' || text[k-1] == '`') {
		k--
	}
	end := k
	if end == 0 || !referenceKeyEnding(text[end-1]) {
		return end, end // decided by its last letter: no walk back
	}
	for k > 0 && end-k < maxKey && (class[text[k-1]]&(mURLSafe|cDot) != 0) {
		k--
	}
	if k > 0 && class[text[k-1]]&(mURLSafe|cDot) != 0 {
		return end, end // longer than any key we know
	}
	return k, end
}

func referenceClassifyKey(key []byte) (keyKind, string) {
	last := len(key) - 1
	for last >= 0 && class[key[last]]&mAlnum == 0 {
		last--
	}
	if last < 0 {
		return keyNone, ""
	}
	var suffixes []string
	switch lower(key[last]) {
	case 'd':
		suffixes = []string{"password", "passwd", "pwd"}
	case 'e':
		suffixes = []string{"passphrase"}
	case 's':
		suffixes = []string{"pass", "credentials", "creds"}
	case 't':
		suffixes = []string{"secret"}
	case 'n':
		suffixes = []string{"token", "authorization"}
	case 'y':
		suffixes = []string{"apikey", "accesskey", "secretkey", "privatekey", "accountkey", "signingkey", "encryptionkey", "masterkey", "authkey", "clientkey", "subscriptionkey"}
	case 'l':
		suffixes = []string{"credential"}
	case 'h':
		suffixes = []string{"auth"}
	default:
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
