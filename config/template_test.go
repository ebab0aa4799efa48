package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDefaultFileTextHasNoSettings(t *testing.T) {
	text := DefaultFileText()
	entries, err := ParseFile(strings.NewReader(text), FilePath)
	if err != nil {
		t.Fatalf("ParseFile(DefaultFileText()): %v", err)
	}
	if len(entries) != 0 {
		t.Errorf("DefaultFileText() sets %v", entries)
	}
	for _, want := range []string{"flag", "git config", "this file", "default"} {
		if !strings.Contains(strings.SplitN(text, "[yoimem]", 2)[0], want) {
			t.Errorf("header does not mention %q", want)
		}
	}
}

// settingLine matches a commented-out setting: "\t# maxResults = 20".
var settingLine = regexp.MustCompile(`^\t# ([A-Za-z][A-Za-z0-9-]*) =( .*)?$`)

func TestDefaultFileTextUncommented(t *testing.T) {
	text := DefaultFileText()
	lines := strings.Split(text, "\n")
	seen := map[string]bool{}
	var all []string
	for i, line := range lines {
		if !settingLine.MatchString(line) {
			all = append(all, line)
			continue
		}
		uncommented := "\t" + strings.TrimPrefix(line, "\t# ")
		all = append(all, uncommented)
		// Uncomment this one line only.
		edited := append(append(append([]string(nil), lines[:i]...), uncommented), lines[i+1:]...)
		entries, err := ParseFile(strings.NewReader(strings.Join(edited, "\n")), FilePath)
		if err != nil {
			t.Fatalf("line %d %q uncommented: %v", i+1, line, err)
		}
		if len(entries) != 1 || entries[0].Line != i+1 {
			t.Fatalf("line %d %q uncommented: entries %v", i+1, line, entries)
		}
		c, warnings, err := Resolve(entries, nil, nil)
		if err != nil || len(warnings) > 0 {
			t.Fatalf("line %d %q uncommented: %v %v", i+1, line, err, warnings)
		}
		v, ok := c.Get(entries[0].Name)
		if !ok || v.Origin.Kind != File || v.Raw != v.Key.Default {
			t.Errorf("line %d %q uncommented: value %+v, want the default from the file", i+1, line, v)
		}
		seen[v.Key.Name] = true
	}
	fileKeys := 0
	for _, k := range Keys() {
		if untrusted(k.Name, "") != "" {
			if seen[k.Name] || !strings.Contains(text, "set it with git config "+k.Name) {
				t.Errorf("DefaultFileText() offers %s, which the committed file may not set", k.Name)
			}
			continue
		}
		fileKeys++
		if !seen[k.Name] {
			t.Errorf("DefaultFileText() has no setting line for %s", k.Name)
		}
	}
	// Uncomment every setting at once: still the defaults, no warnings.
	entries, err := ParseFile(strings.NewReader(strings.Join(all, "\n")), FilePath)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != fileKeys {
		t.Fatalf("all uncommented: %d entries, want %d", len(entries), fileKeys)
	}
	c, warnings, err := Resolve(entries, nil, nil)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("all uncommented: %v %v", err, warnings)
	}
	for i, v := range c.All() {
		d := Defaults().All()[i]
		if untrusted(v.Key.Name, "") != "" {
			if v.Origin.Kind != Default {
				t.Errorf("all uncommented: %s set from the file", v.Key.Name)
			}
			continue
		}
		if v.Origin.Kind != File || v.Raw != d.Raw || v.num != d.num || v.flt != d.flt || v.bl != d.bl {
			t.Errorf("all uncommented: %s = %+v, want the default %+v", v.Key.Name, v, d)
		}
	}
}

func TestDefaultFileTextGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(DefaultFileText()), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "config", "-f", path, "--list")
	cmd.Env = isolatedEnv(t)
	out, err := cmd.Output()
	if err != nil || len(out) != 0 {
		t.Errorf("git config --list of DefaultFileText() = %q, %v; want nothing", out, err)
	}
}

func TestQuoteValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain/value", "plain/value"},
		{"", `""`},
		{" lead", `" lead"`},
		{"a#b", `"a#b"`},
		{"a;b", `"a;b"`},
		{`q"\`, `"q\"\\"`},
		{"t\tn\n", `"t\tn\n"`},
	}
	for _, tt := range tests {
		got := quoteValue(tt.in, false)
		if got != tt.want {
			t.Errorf("quoteValue(%q) = %s, want %s", tt.in, got, tt.want)
		}
		entries, err := ParseFile(strings.NewReader("[yoimem]\n\tk = "+got+"\n"), "t")
		if err != nil || len(entries) != 1 || entries[0].Value != tt.in {
			t.Errorf("ParseFile of quoteValue(%q) = %v, %v", tt.in, entries, err)
		}
	}
}
