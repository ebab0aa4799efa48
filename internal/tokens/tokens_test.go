package tokens

import (
	"math"
	"testing"
)

func TestAdd(t *testing.T) {
	tests := []struct{ a, b, want int64 }{
		{0, 0, 0},
		{1, 2, 3},
		{Max - 1, 1, Max},
		{Max, 1, Max},
		{Max, Max, Max},
		{Max + 1, 5, 5},
		{math.MaxInt64, 5, 5},
		{5, math.MaxInt64, 5},
		{-1, 5, 5},
		{math.MinInt64, math.MinInt64, 0},
	}
	for _, tt := range tests {
		if got := Add(tt.a, tt.b); got != tt.want {
			t.Errorf("Add(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := Sum(Max, Max, Max, math.MaxInt64, -1); got != Max {
		t.Errorf("Sum = %d", got)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"12", 12, true},
		{"9007199254740992", Max, true},
		{"09007199254740992", 0, false}, // 17 digits
		{"9007199254740993", 0, false},
		{"9223372036854775807", 0, false},
		{"9223372036854775808", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{`"12"`, 0, false},
		{"", 0, false},
		{"null", 0, false},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Parse(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "9007199254740992", "9007199254740993", "9223372036854775807", "-1", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := Parse([]byte(s))
		if ok != Valid(n) && ok || !ok && n != 0 {
			t.Fatalf("Parse(%q) = %d, %v", s, n, ok)
		}
	})
}
