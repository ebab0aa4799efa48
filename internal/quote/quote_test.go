package quote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	tests := []struct {
		name     string
		nonASCII bool
		want     string
	}{
		{".yoi/knowledge/retry.md", true, ".yoi/knowledge/retry.md"},
		{"with space.md", true, "with space.md"},
		{"a\nb.md", true, `"a\nb.md"`},
		{"tab\there", true, `"tab\there"`},
		{"bell\a bs\b vt\v ff\f cr\r", true, `"bell\a bs\b vt\v ff\f cr\r"`},
		{"esc\x1b[31m", true, `"esc\033[31m"`},
		{"nul\x00 del\x7f one\x01", true, `"nul\000 del\177 one\001"`},
		{`quote" back\`, true, `"quote\" back\\"`},
		{"日本.md", true, `"\346\227\245\346\234\254.md"`},
		{"日本.md", false, "日本.md"},
		{"日本\n.md", false, "\"日本\\n.md\""},
		{"bad\xff", true, `"bad\377"`},
		{"", true, ""},
	}
	for _, tt := range tests {
		if got := Path(tt.name, tt.nonASCII); got != tt.want {
			t.Errorf("Path(%q, %t) = %s, want %s", tt.name, tt.nonASCII, got, tt.want)
		}
	}
}

func TestControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain message: \"x\" \\ 日本": "plain message: \"x\" \\ 日本",
		"two\nlines\r\x1b[2J":        `two\nlines\r\033[2J`,
		"nul\x00":                    `nul\000`,
	} {
		if got := Controls(in); got != want {
			t.Errorf("Controls(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLikeGit compares Path with what git itself prints for the same file
// names, with core.quotePath on and off.
func TestLikeGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	names := []string{"plain.md", "a\nb.md", "tab\t.md", "esc\x1b[31m.md", "q\"b\\.md", "日本.md", "del\x7f.md", "ctl\x01\x1f.md", "sp ace.md"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Skipf("file system refuses %q: %v", n, err)
		}
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	for _, on := range []bool{true, false} {
		setting := "core.quotePath=false"
		if on {
			setting = "core.quotePath=true"
		}
		got := strings.Split(strings.TrimSuffix(git("-c", setting, "ls-files"), "\n"), "\n")
		want := map[string]bool{}
		for _, n := range names {
			want[Path(n, on)] = true
		}
		for _, g := range got {
			if !want[g] {
				t.Errorf("%s: git prints %s, which Path does not give for any name (%v)", setting, g, want)
			}
		}
		if len(got) != len(names) {
			t.Errorf("%s: git listed %d names, want %d", setting, len(got), len(names))
		}
	}
}

func TestValue(t *testing.T) {
	long := strings.Repeat("x", 79) + "日本"
	for in, want := range map[string]string{
		"":                         `""`,
		"main":                     `"main"`,
		"a\nb\x1b":                 `"a\nb\x1b"`,
		strings.Repeat("a", 80):    `"` + strings.Repeat("a", 80) + `"`,
		strings.Repeat("a", 81):    `"` + strings.Repeat("a", 80) + `…" (81 bytes)`,
		long:                       `"` + strings.Repeat("x", 79) + `…" (85 bytes)`,
		strings.Repeat("y", 1<<20): `"` + strings.Repeat("y", 80) + `…" (1048576 bytes)`,
	} {
		if got := Value(in); got != want {
			t.Errorf("Value(%.20q…) = %s, want %s", in, got, want)
		}
	}
}

func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		"README.md":             "README.md",
		"yoimem.search.max":     "yoimem.search.max",
		"a b":                   `"a b"`,
		"s\x1b":                 `"s\x1b"`,
		strings.Repeat("k", 81): `"` + strings.Repeat("k", 80) + `…" (81 bytes)`,
	} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestPathValue(t *testing.T) {
	long := strings.Repeat("a", 300) + ".md"
	tests := []struct{ in, want string }{
		{".yoi/knowledge/retry.md", ".yoi/knowledge/retry.md"},
		{"a\nb.md", `"a\nb.md"`},
		{long, `"` + strings.Repeat("a", 256) + `…" (303 bytes)`},
		{strings.Repeat("\n", 300), `"` + strings.Repeat(`\n`, 256) + `…" (300 bytes)`},
		{strings.Repeat("a", 255) + "日本", `"` + strings.Repeat("a", 255) + `…" (261 bytes)`},
	}
	for _, tt := range tests {
		if got := PathValue(tt.in, false); got != tt.want {
			t.Errorf("PathValue(%.20q…) = %.80s, want %.80s", tt.in, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("short"); got != "short" {
		t.Errorf("Line(short) = %q", got)
	}
	got := Line(strings.Repeat("x", 5000))
	if want := strings.Repeat("x", 1024) + "… (5000 bytes)"; got != want {
		t.Errorf("Line(5000 x) = %.40q… (%d bytes)", got, len(got))
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 16777216: "16,777,216", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	if !strings.Contains(Thousands(1<<62), ",") {
		t.Error("no separators")
	}
}
