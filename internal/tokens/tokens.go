// Package tokens is the arithmetic of token counts read from session logs,
// model replies and the ledger: a count is a whole number from 0 to Max,
// and sums stop at Max instead of wrapping around. A log or a server that
// reports 2^63-1 input tokens must not turn a threshold check or a
// frequency negative. Estimate weighs text in tokens without a tokenizer.
package tokens

import "strconv"

// Max is the largest count kept: 2^53, the largest whole number that
// every JSON reader (a float64) holds exactly. No session comes near it.
const Max int64 = 1 << 53

// Valid reports whether n is a count: 0 <= n <= Max.
func Valid(n int64) bool { return n >= 0 && n <= Max }

// Add returns a+b, at most Max; an operand out of range counts as 0.
func Add(a, b int64) int64 {
	if !Valid(a) {
		a = 0
	}
	if !Valid(b) {
		b = 0
	}
	if a > Max-b {
		return Max
	}
	return a + b
}

// Parse reads a JSON number as a count: digits only (no sign, fraction or
// exponent), at most Max. ok is false for anything else.
func Parse(b []byte) (n int64, ok bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false // 2^53 has 16 digits
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n > Max {
		return 0, false
	}
	return n, true
}

// Sum adds counts with Add: the result is at most Max, and a count out of
// range counts 0.
func Sum(ns ...int64) int64 {
	var s int64
	for _, n := range ns {
		s = Add(s, n)
	}
	return s
}
