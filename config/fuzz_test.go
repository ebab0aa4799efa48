package config

import (
	"strings"
	"testing"
)

// FuzzParseFile checks that ParseFile never panics (it would turn a panic
// into a "cannot parse" error) and that what it returns is well-formed.
func FuzzParseFile(f *testing.F) {
	for _, tt := range parseFileTests {
		f.Add(tt.text)
	}
	for _, tt := range parseFileErrorTests {
		f.Add(tt.text)
	}
	f.Add(DefaultFileText())
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := ParseFile(strings.NewReader(text), "f")
		if err != nil {
			if strings.Contains(err.Error(), "cannot parse") || !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("ParseFile(%q): %v", text, err)
			}
			return
		}
		for _, e := range entries {
			if !isYoimem(e.Name) || e.Line < 1 || e.Line > strings.Count(text, "\n")+1 || e.Origin != (Origin{Kind: File, Detail: "f"}) {
				t.Fatalf("ParseFile(%q): bad entry %#v", text, e)
			}
			if e.NoValue && e.Value != "" {
				t.Fatalf("ParseFile(%q): entry without value has value %#v", text, e)
			}
		}
	})
}
