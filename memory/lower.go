package memory

import (
	"encoding/binary"
	"unicode"
	"unicode/utf8"
)

// lower returns s lowered for case-insensitive matching, exactly as
// bytes.ToLower does (invalid UTF-8 included). ASCII, most of any record,
// is lowered eight bytes at a time even between other text; bytes.ToLower
// maps the whole of a text with one non-ASCII rune a rune at a time, and
// a cold search lowers every record (many in Japanese).
func lower(s []byte) []byte {
	return lowerTo(make([]byte, 0, len(s)), s, false)
}

// lowerInPlace lowers s in place and returns it, unless a lowered rune
// is longer than the original (rare: Ⱥ, or invalid UTF-8 becoming
// U+FFFD): then the rest goes into a new slice.
func lowerInPlace(s []byte) []byte {
	return lowerTo(s[:0], s, true)
}

// lowerTo appends s lowered to out. In place (out is s[:0]), what is
// appended never passes what has been read: each step writes at most
// what it read, until a rune grows, when out is moved to a new slice.
func lowerTo(out, s []byte, inPlace bool) []byte {
	for i := 0; i < len(s); {
		if n := asciiWords(out[len(out):cap(out)], s[i:]); n > 0 {
			out = out[:len(out)+n]
			i += n
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		if c := s[i]; c >= 0xe3 && c <= 0xe9 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 {
			// U+3000–U+9FFF (kana, kanji), caseless: no decoding
			out = append(out, s[i:i+3]...)
			i += 3
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		lr := lowerRune(r)
		if lr == r && size == utf8.RuneLen(r) { // unchanged and valid: as it is
			out = append(out, s[i:i+size]...)
			i += size
			continue
		}
		if inPlace && len(out)+utf8.RuneLen(lr) > i+size {
			out = append(make([]byte, 0, len(s)+len(s)/8+utf8.UTFMax), out...)
			inPlace = false
		}
		out = utf8.AppendRune(out, lr)
		i += size
	}
	return out
}

// asciiWords lowers the eight-byte ASCII words at the start of s into
// dst, as far as dst has room, and returns how many bytes it lowered. In
// place, dst starts at or before s: each word is read before it is
// written.
func asciiWords(dst, s []byte) int {
	n := 0
	for ; n+8 <= len(s) && n+8 <= len(dst); n += 8 {
		w := binary.LittleEndian.Uint64(s[n:])
		if w&0x8080808080808080 != 0 {
			break
		}
		binary.LittleEndian.PutUint64(dst[n:], lowerWord(w))
	}
	return n
}

// lowerRune is unicode.ToLower, without its table search for the blocks
// of CJK and Hangul text, which have no case (TestCaselessBlocks checks
// every rune of them).
func lowerRune(r rune) rune {
	if caseless(r) {
		return r
	}
	return unicode.ToLower(r)
}

// caseless: CJK symbols and punctuation, kana, CJK ideographs
// (U+3000–U+9FFF) and Hangul syllables (U+AC00–U+D7A3).
func caseless(r rune) bool {
	return (r >= 0x3000 && r <= 0x9fff) || (r >= 0xac00 && r <= 0xd7a3)
}

// lowerWord lowers the ASCII letters of eight ASCII bytes: a byte is set
// in the mask when it is at least 'A' and not above 'Z', and 0x20 is
// added to those bytes.
func lowerWord(w uint64) uint64 {
	const ones = 0x0101010101010101
	geA := w + ones*(0x80-'A')   // high bit: byte >= 'A'
	gtZ := w + ones*(0x80-'Z'-1) // high bit: byte > 'Z'
	mask := (geA &^ gtZ) & (ones * 0x80)
	return w | mask>>2
}
