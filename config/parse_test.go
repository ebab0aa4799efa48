package config

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// fe is a shorthand for an Entry from .yoi/config.
func fe(line int, name, value string) Entry {
	return Entry{Name: name, Value: value, Origin: Origin{Kind: File, Detail: ".yoi/config"}, Line: line}
}

var parseFileTests = []struct {
	name string
	text string
	want []Entry
}{
	{"empty", "", nil},
	{"only comments", "# a\n; b\n\n", nil},
	{
		"sections and subsections",
		"[yoimem]\n\tbranch = mem\n[yoimem \"search\"]\n\tmaxResults = 30\n",
		[]Entry{fe(2, "yoimem.branch", "mem"), fe(4, "yoimem.search.maxResults", "30")},
	},
	{
		"section case-insensitive, subsection and key kept as written",
		"[YoiMem \"Search\"]\n\tMaxResults = 1\n[YOIMEM]\n\tBRANCH = b\n",
		[]Entry{fe(2, "yoimem.Search.MaxResults", "1"), fe(4, "yoimem.BRANCH", "b")},
	},
	{
		"deprecated dotted header lowercases the subsection",
		"[yoimem.Search]\n\tmaxResults = 2\n[yoimem.a.B]\n\tk = v\n",
		[]Entry{fe(2, "yoimem.search.maxResults", "2"), fe(4, "yoimem.a.b.k", "v")},
	},
	{
		"subsection with dot and escapes",
		"[yoimem \"a.b\\\"c\\\\\"]\n\tk = v\n",
		[]Entry{fe(2, `yoimem.a.b"c\.k`, "v")},
	},
	{
		"quoted value with escapes",
		"[yoimem]\n\tbranch = \"a \\\"b\\\" \\\\ c\\td\\n\\be\"\n",
		[]Entry{fe(2, "yoimem.branch", "a \"b\" \\ c\td\n\be")},
	},
	{
		"escapes outside quotes",
		"[yoimem]\n\tbranch = a\\tb\\\\c\n",
		[]Entry{fe(2, "yoimem.branch", "a\tb\\c")},
	},
	{
		"whitespace: trimmed at ends, one space per character inside, kept in quotes",
		"[yoimem]\n\tbranch =   a\t\tb  \"  c \t d  \"  \t\n",
		[]Entry{fe(2, "yoimem.branch", "a  b    c \t d  ")},
	},
	{
		"comments with # and ;",
		"# top\n; top\n[yoimem] # after header\n\tbranch = x # trailing\n\tbaseBranch = y;trailing\n\tk = \"a # b ; c\" ; after quotes\n",
		[]Entry{fe(4, "yoimem.branch", "x"), fe(5, "yoimem.baseBranch", "y"), fe(6, "yoimem.k", "a # b ; c")},
	},
	{
		"continuation lines",
		"[yoimem]\n\tbranch = foo \\\n   bar\n\tbaseBranch = \"foo\\\nbar\"\n\tk = 1\n",
		[]Entry{fe(2, "yoimem.branch", "foo    bar"), fe(4, "yoimem.baseBranch", "foobar"), fe(6, "yoimem.k", "1")},
	},
	{
		"leading whitespace after empty quotes or a continuation",
		"[yoimem]\n\tbranch = \"\" x\n\tbaseBranch = \\\n   y\n",
		[]Entry{fe(2, "yoimem.branch", "x"), fe(3, "yoimem.baseBranch", "y")},
	},
	{
		"key with no value and key with empty value",
		"[yoimem \"lint\"]\n\tsimilarSlugs\n\tother =\n\tquoted = \"\"\n",
		[]Entry{
			{Name: "yoimem.lint.similarSlugs", NoValue: true, Origin: Origin{Kind: File, Detail: ".yoi/config"}, Line: 2},
			fe(3, "yoimem.lint.other", ""),
			fe(4, "yoimem.lint.quoted", ""),
		},
	},
	{
		"key on the line of its header",
		"[yoimem] branch = x\n[yoimem \"lint\"] similarSlugs\n",
		[]Entry{fe(1, "yoimem.branch", "x"), {Name: "yoimem.lint.similarSlugs", NoValue: true, Origin: Origin{Kind: File, Detail: ".yoi/config"}, Line: 2}},
	},
	{
		"repeated keys and sections keep file order",
		"[yoimem]\n\tbranch = a\n[yoimem \"search\"]\n\tmaxResults = 1\n[yoimem]\n\tbranch = b\n",
		[]Entry{fe(2, "yoimem.branch", "a"), fe(4, "yoimem.search.maxResults", "1"), fe(6, "yoimem.branch", "b")},
	},
	{
		"other sections ignored",
		"[core]\n\tbare = false\n[yoimemx]\n\tbranch = no\n[remote \"yoimem\"]\n\turl = u\n[include]\n\tpath = x\n[yoimem]\n\tbranch = yes\n",
		[]Entry{fe(10, "yoimem.branch", "yes")},
	},
	{
		"CRLF line ends",
		"[yoimem]\r\n\tbranch = x\r\n\tbaseBranch = \"y\"\r\n",
		[]Entry{fe(2, "yoimem.branch", "x"), fe(3, "yoimem.baseBranch", "y")},
	},
	{
		"UTF-8 byte order mark",
		"\xef\xbb\xbf[yoimem]\n\tbranch = é\n",
		[]Entry{fe(2, "yoimem.branch", "é")},
	},
	{
		"no final newline",
		"[yoimem]\n\tbranch = x",
		[]Entry{fe(2, "yoimem.branch", "x")},
	},
}

func TestParseFile(t *testing.T) {
	for _, tt := range parseFileTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFile(strings.NewReader(tt.text), ".yoi/config")
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseFile(%q)\n got %#v\nwant %#v", tt.text, got, tt.want)
			}
		})
	}
}

var parseFileErrorTests = []struct {
	name string
	text string
	want string // the whole error
	git  bool   // git rejects the text too (git is laxer in a few cases)
}{
	{"key without section", "branch = x\n", ".yoi/config:1: expected section header before branch", false},
	{"missing =", "[yoimem]\n\tbranch x\n", ".yoi/config:2: expected '=' after branch", true},
	{"unclosed header", "[yoimem\n\tbranch = x\n", ".yoi/config:1: expected ']'", true},
	{"header without name", "[]\n", ".yoi/config:1: expected section name", true},
	{"text after header", "[yoimem] = 3\n", ".yoi/config:1: expected end of line after section header", true},
	{"empty subsection", "[yoimem \"\"]\n", ".yoi/config:1: empty subsection name", false},
	{"dot without subsection", "[yoimem.]\n", ".yoi/config:1: expected subsection name after '.'", false},
	{"subsection in both syntaxes", "[yoimem.a \"b\"]\n", ".yoi/config:1: expected ']'", false},
	{"unterminated quote", "[yoimem]\n\tbranch = \"abc\n\tk = v\n", ".yoi/config:2: string not terminated", true},
	{"unknown escape", "[yoimem]\n\n\tbranch = a\\qb\n", ".yoi/config:3: unknown escape sequence", true},
	{"underscore in key", "[yoimem]\n\tmax_results = 1\n", ".yoi/config:2: illegal character U+005F '_'", true},
	{"missing equals sign", "[yoimem \"search\"]\n\tmaxResults 10\n", ".yoi/config:2: illegal character U+0031 '1' (expected key = value)", true},
	{"error in another section", "[core]\n\tbare false\n", ".yoi/config:2: expected '=' after bare", true},
	{"stray character", "[yoimem]\n\t= 1\n", ".yoi/config:2: expected section header or key", true},
}

func TestParseFileErrors(t *testing.T) {
	for _, tt := range parseFileErrorTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFile(strings.NewReader(tt.text), ".yoi/config")
			if err == nil {
				t.Fatalf("ParseFile(%q) = %v, want error %q", tt.text, got, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("ParseFile(%q) error\n got %q\nwant %q", tt.text, err, tt.want)
			}
		})
	}
}

func TestParseFileReadError(t *testing.T) {
	cause := errors.New("disk on fire")
	_, err := ParseFile(iotest.ErrReader(cause), "x/.yoi/config")
	if !errors.Is(err, cause) || !strings.HasPrefix(err.Error(), "reading x/.yoi/config: ") {
		t.Errorf("error = %v, want it to wrap %v and name the file", err, cause)
	}
}

// TestParseFileTooLarge: a configuration file over MaxFileBytes is an
// error with its size and the limit, read no further than the limit (a
// reader that never ends ends there).
func TestParseFileTooLarge(t *testing.T) {
	head := "[yoimem]\n\tbranch = m\n"
	ok := head + strings.Repeat("\n", MaxFileBytes-len(head)) // the limit exactly
	if _, err := ParseFile(strings.NewReader(ok), ".yoi/config"); err != nil {
		t.Fatalf("%d bytes: %v", len(ok), err)
	}
	_, err := ParseFile(io.MultiReader(strings.NewReader("[yoimem]\n"), neverEnding('#')), ".yoi/config")
	want := ".yoi/config is more than 1,048,576 bytes, the limit of a configuration file"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// TestParseFileAgainstGit checks that git reads the same yoimem.* values
// from each valid test file, and rejects the invalid ones.
func TestParseFileAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	env := isolatedEnv(t)
	dir := t.TempDir()
	gitList := func(text string) ([]Entry, error) {
		path := filepath.Join(dir, "config")
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "config", "-f", path, "-z", "--list")
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			return nil, err
		}
		var got []Entry
		for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			name, value, ok := strings.Cut(rec, "\n")
			if rec == "" || !isYoimem(name) {
				continue
			}
			got = append(got, Entry{Name: name, Value: value, NoValue: !ok})
		}
		return got, nil
	}
	for _, tt := range parseFileTests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := gitList(tt.text)
			if err != nil {
				t.Fatalf("git rejects %q: %v", tt.text, err)
			}
			var got []Entry
			for _, e := range tt.want {
				sec, sub, key, _ := splitName(e.Name)
				name := strings.ToLower(sec) + "."
				if sub != "" {
					name += sub + "."
				}
				got = append(got, Entry{Name: name + strings.ToLower(key), Value: e.Value, NoValue: e.NoValue})
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("text %q\n ours %#v\n  git %#v", tt.text, got, want)
			}
		})
	}
	for _, tt := range parseFileErrorTests {
		if !tt.git {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			if got, err := gitList(tt.text); err == nil {
				t.Errorf("git accepts %q: %#v", tt.text, got)
			}
		})
	}
}

func TestParseFlag(t *testing.T) {
	flag := Origin{Kind: Flag, Detail: "-c"}
	tests := []struct {
		arg     string
		want    Entry
		wantErr string
	}{
		{arg: "yoimem.search.maxResults=5", want: Entry{Name: "yoimem.search.maxResults", Value: "5", Origin: flag}},
		{arg: "yoimem.branch=a=b c", want: Entry{Name: "yoimem.branch", Value: "a=b c", Origin: flag}},
		{arg: "yoimem.branch=", want: Entry{Name: "yoimem.branch", Value: "", Origin: flag}},
		{arg: "yoimem.lint.similarSlugs", want: Entry{Name: "yoimem.lint.similarSlugs", NoValue: true, Origin: flag}},
		{arg: "YOIMEM.Search.max-results2=1", want: Entry{Name: "YOIMEM.Search.max-results2", Value: "1", Origin: flag}},
		{arg: "=5", wantErr: `flag -c "=5": missing key name`},
		{arg: "", wantErr: `flag -c "": missing key name`},
		{arg: "yoimem=5", wantErr: `flag -c "yoimem=5": "yoimem" is not a key name of the form yoimem.<section>.<key>`},
		{arg: "yoimem.=5", wantErr: `flag -c "yoimem.=5": "yoimem." is not a key name of the form yoimem.<section>.<key>`},
		{arg: "core.editor=vi", wantErr: `flag -c "core.editor=vi": "core.editor" is not a git yoimem setting (they start with "yoimem.")`},
		{arg: "yoimem.search.max_results=1", wantErr: `flag -c "yoimem.search.max_results=1": "yoimem.search.max_results" is not a valid key name`},
		{arg: "yoimem.search.1max=1", wantErr: `flag -c "yoimem.search.1max=1": "yoimem.search.1max" is not a valid key name`},
		{arg: "yoimem..x=1", wantErr: `flag -c "yoimem..x=1": "yoimem..x" is not a key name of the form yoimem.<section>.<key>`},
	}
	for _, tt := range tests {
		got, err := ParseFlag(tt.arg)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("ParseFlag(%q) error = %v, want %q", tt.arg, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseFlag(%q) = %#v, %v; want %#v", tt.arg, got, err, tt.want)
		}
	}
}

func TestOriginString(t *testing.T) {
	tests := []struct {
		o    Origin
		want string
	}{
		{Origin{}, "default"},
		{Origin{Kind: File, Detail: ".yoi/config"}, ".yoi/config"},
		{Origin{Kind: File}, "file"},
		{Origin{Kind: Git, Detail: "local file:.git/config"}, "git config (local: .git/config)"},
		{Origin{Kind: Git, Detail: "global file:/home/u/.gitconfig"}, "git config (global: /home/u/.gitconfig)"},
		{Origin{Kind: Git, Detail: "command command line:"}, "git config (command line)"},
		{Origin{Kind: Git, Detail: "local"}, "git config (local)"},
		{Origin{Kind: Git}, "git config"},
		{Origin{Kind: Flag, Detail: "-c"}, "flag -c"},
		{Origin{Kind: Flag}, "flag"},
	}
	for _, tt := range tests {
		if got := tt.o.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.o, got, tt.want)
		}
	}
}
