package memory

import (
	"bytes"
	"testing"
	"unicode"
)

func TestLower(t *testing.T) {
	for _, s := range []string{
		"", "A", "Hello, World! @[`{ AZaz09", "ÄÖÜ Straße ΣΑΣ", "mixed ASCII then Ünïcode",
		"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ@[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f\x00",
		// Japanese between ASCII words, as the mixed corpus writes it
		"Retry は指数バックオフで行う。HTTP 429 のとき Retry-After を読む（最大 3 回）。",
		"ＡＢＣ ｆｕｌｌｗｉｄｔｈ",                   // fullwidth letters have case
		"\u212a\u212a KELVIN",             // lowers to ASCII: shorter
		"\u0130stanbul",                   // İ lowers to i: shorter
		"\u023a\u023e grows",              // Ⱥ Ⱦ lower to three bytes: longer
		"AB\u023aCDEFGHIJKLMNOP",          // longer, then ASCII words
		"bad \xff\xfe UTF-8 \xe3\x81 ABC", // invalid bytes become U+FFFD, as bytes.Map does
		"\xefABCDEFGH\xbf",
		"\ufffd real replacement character ABC",
		"한국어 텍스트 ABC 中文 ΑΒΓ Привет",
	} {
		if got, want := lower([]byte(s)), bytes.ToLower([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("lower(%q) = %q, want %q", s, got, want)
		}
		if got, want := lowerInPlace([]byte(s)), bytes.ToLower([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("lowerInPlace(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzLower: the fast path agrees with bytes.ToLower on any input.
func FuzzLower(f *testing.F) {
	f.Add([]byte("Hello, World"))
	f.Add([]byte("ÄÖÜ ascii ABC"))
	f.Fuzz(func(t *testing.T, s []byte) {
		want := bytes.ToLower(s)
		if got := lower(s); !bytes.Equal(got, want) {
			t.Errorf("lower(%q) = %q, want %q", s, got, want)
		}
		if got := lowerInPlace(bytes.Clone(s)); !bytes.Equal(got, want) {
			t.Errorf("lowerInPlace(%q) = %q, want %q", s, got, want)
		}
	})
}

func BenchmarkLower(b *testing.B) {
	s := bytes.Repeat([]byte("The Quick Brown Fox Jumps Over The Lazy Dog 0123456789\n"), 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		lower(s)
	}
}

// BenchmarkLowerJapanese: a record of the mixed corpus in Japanese,
// ASCII words and punctuation among the kana and kanji.
func BenchmarkLowerJapanese(b *testing.B) {
	s := bytes.Repeat([]byte("Retry は指数バックオフで行う。HTTP 429 のとき Retry-After を読む（最大 3 回）。\n"), 5000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		lower(s)
	}
}

func BenchmarkBytesToLower(b *testing.B) {
	s := bytes.Repeat([]byte("The Quick Brown Fox Jumps Over The Lazy Dog 0123456789\n"), 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		bytes.ToLower(s)
	}
}

// TestCaselessBlocks: every rune lowerRune takes as caseless is its own
// lower case for unicode.ToLower.
func TestCaselessBlocks(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if caseless(r) && unicode.ToLower(r) != r {
			t.Errorf("caseless(%U) but unicode.ToLower gives %U", r, unicode.ToLower(r))
		}
	}
}
