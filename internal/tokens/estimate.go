package tokens

import "unicode/utf8"

// Estimate is a tokenizer-free estimate of the tokens text costs a model:
// one per four ASCII characters (rounded up; English prose and code run
// at about four characters a token) plus one per other character (a kanji,
// kana or hangul character is about one token, an accented letter or an
// emoji at least one) and one per byte that is not UTF-8. No tokenizer is
// bundled: models differ, and a record's size only needs to be weighed,
// not billed.
func Estimate(text []byte) int64 {
	var ascii, other int64
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, n := utf8.DecodeRune(text[i:])
		other++
		i += n
	}
	return (ascii+3)/4 + other
}
