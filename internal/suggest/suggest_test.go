package suggest

import (
	"reflect"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"search", "search", 0},
		{"serch", "search", 1},    // a deletion
		{"serach", "search", 1},   // a transposition counts once
		{"fromat", "format", 1},   // another
		{"lnit", "lint", 1},       // and another
		{"kitten", "sitting", 3},  // the classic
		{"ca", "abc", 3},          // optimal string alignment: no edit of a transposed pair
		{"ünïcode", "unicode", 2}, // runes, not bytes
		{"yoimem.brnch", "yoimem.branch", 1},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"init", "lint", "config", "install", "uninstall", "hook", "log", "merge", "search", "show", "context", "expand", "memory", "mcp", "stats", "extract", "help"}
	for _, tt := range []struct {
		word string
		want []string
	}{
		{"serch", []string{"search"}},
		{"SERCH", []string{"search"}},      // case does not count
		{"lnit", []string{"init", "lint"}}, // ties: both, in the candidates' order
		{"confg", []string{"config"}},
		{"ext", []string{"extract"}}, // a prefix counts as one edit
		{"extr", []string{"extract"}},
		{"stat", []string{"stats"}},
		{"frobnicate", nil},
		{"x", nil}, // one letter says too little
		{"lg", []string{"log"}},
		{"ls", nil}, // two edits from a three-letter word is a guess
		{"search", []string{"search"}},
		{"", nil},
	} {
		if got := Closest(tt.word, commands); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestWithin(t *testing.T) {
	keys := []string{"yoimem.search.maxResults", "yoimem.search.excerptLines", "yoimem.branch"}
	if got := Within("yoimem.serach.maxresults", keys, 5); !reflect.DeepEqual(got, []string{"yoimem.search.maxResults"}) {
		t.Errorf("Within = %q", got)
	}
	if got := Within("yoimem.frobnicate", keys, 3); got != nil {
		t.Errorf("Within(far) = %q, want nothing", got)
	}
}

func TestPhrase(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := OrList(tt.in); got != tt.want {
			t.Errorf("OrList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
