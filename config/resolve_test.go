package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

var (
	gitLocal = Origin{Kind: Git, Detail: "local file:.git/config"}
	flagC    = Origin{Kind: Flag, Detail: "-c"}
)

func ge(name, value string) Entry { return Entry{Name: name, Value: value, Origin: gitLocal} }
func ce(name, value string) Entry { return Entry{Name: name, Value: value, Origin: flagC} }

func TestResolvePrecedence(t *testing.T) {
	file := []Entry{fe(2, "yoimem.search.maxResults", "30"), fe(3, "yoimem.branch", "file-branch"), fe(4, "yoimem.lint.lossRatio", "0.25")}
	git := []Entry{ge("yoimem.search.maxresults", "40"), ge("yoimem.branch", "git-branch")}
	flags := []Entry{ce("yoimem.search.maxResults", "50")}
	tests := []struct {
		name             string
		file, git, flags []Entry
		key              string
		want             string
		origin           Origin
		line             int
	}{
		{"default", nil, nil, nil, KeySearchMaxResults, "20", Origin{}, 0},
		{"file over default", file, nil, nil, KeySearchMaxResults, "30", file[0].Origin, 2},
		{"git over file", file, git, nil, KeySearchMaxResults, "40", gitLocal, 0},
		{"flag over git", file, git, flags, KeySearchMaxResults, "50", flagC, 0},
		{"flag over file", file, nil, flags, KeySearchMaxResults, "50", flagC, 0},
		{"flag over default", nil, nil, flags, KeySearchMaxResults, "50", flagC, 0},
		{"git where no flag", file, git, flags, KeyBranch, "git-branch", gitLocal, 0},
		{"file where no git or flag", file, git, flags, KeyLintLossRatio, "0.25", file[0].Origin, 4},
		{"default where no layer", file, git, flags, KeyLintSimilarSlugs, "true", Origin{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warnings, err := Resolve(tt.file, tt.git, tt.flags)
			if err != nil || len(warnings) != 0 {
				t.Fatalf("Resolve: %v %v", err, warnings)
			}
			v, ok := c.Get(tt.key)
			if !ok || v.Raw != tt.want || v.Origin != tt.origin || v.Line != tt.line || v.Key.Name != tt.key {
				t.Errorf("Get(%s) = %+v, %v; want %q from %v line %d", tt.key, v, ok, tt.want, tt.origin, tt.line)
			}
		})
	}
}

func TestResolveLastWinsWithinLayer(t *testing.T) {
	for _, layer := range []int{0, 1, 2} {
		entries := []Entry{fe(2, "yoimem.search.maxResults", "1"), fe(5, "yoimem.branch", "b"), fe(9, "YOIMEM.search.MAXRESULTS", "3")}
		layers := [3][]Entry{}
		layers[layer] = entries
		c, _, err := Resolve(layers[0], layers[1], layers[2])
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := c.Get(KeySearchMaxResults); c.Int(KeySearchMaxResults) != 3 || v.Line != 9 {
			t.Errorf("layer %d: maxResults = %d from line %d, want 3 from line 9", layer, c.Int(KeySearchMaxResults), v.Line)
		}
	}
}

func TestResolveValidValues(t *testing.T) {
	tests := []struct {
		key     string
		value   string
		noValue bool
		want    any // int64, float64, bool or string
	}{
		{KeySearchMaxResults, "0", false, int64(0)},
		{KeySearchMaxResults, "42", false, int64(42)},
		{KeySearchMaxResults, " 7 ", false, int64(7)},
		{KeySearchMaxResults, "010", false, int64(10)},
		{KeyExtractTokenThreshold, "30k", false, int64(30 * 1024)},
		{KeyExtractTokenThreshold, "2M", false, int64(2 << 20)},
		{KeyExtractTokenThreshold, "1g", false, int64(1 << 30)},
		{KeyExtractTokenThreshold, "8589934591G", false, int64(8589934591 << 30)},
		{KeyExtractTokenThreshold, "9223372036854775807", false, int64(9223372036854775807)},
		{KeyLintMaxFileBytes, "2m", false, int64(2 << 20)},
		{KeyLintMaxFileBytes, "512", false, int64(512)},
		{KeyConsolidateStagingBytes, "256K", false, int64(262144)},
		{KeyLintLossRatio, "0.25", false, 0.25},
		{KeyLintLossRatio, "0", false, 0.0},
		{KeyLintLossRatio, "1", false, 1.0},
		{KeyMetricsProtectFrequency, "1e-3", false, 0.001},
		{KeyMetricsProtectFrequency, "3.", false, 3.0},
		{KeyLintSimilarSlugs, "true", false, true},
		{KeyLintSimilarSlugs, "TRUE", false, true},
		{KeyLintSimilarSlugs, "Yes", false, true},
		{KeyLintSimilarSlugs, "on", false, true},
		{KeyLintSimilarSlugs, "1", false, true},
		{KeyLintSimilarSlugs, "", true, true},
		{KeyLintSimilarSlugs, "false", false, false},
		{KeyLintSimilarSlugs, "No", false, false},
		{KeyLintSimilarSlugs, "OFF", false, false},
		{KeyLintSimilarSlugs, "0", false, false},
		{KeyLintSimilarSlugs, "", false, false}, // "key =" is false in git
		{KeyBranch, "feature/x y", false, "feature/x y"},
		{KeyBranch, "", false, ""},
		{KeyExtractModel, "anthropic:claude-haiku-4-5", false, "anthropic:claude-haiku-4-5"},
	}
	for _, tt := range tests {
		e := fe(1, tt.key, tt.value)
		e.NoValue = tt.noValue
		c, _, err := Resolve([]Entry{e}, nil, nil)
		if err != nil {
			t.Errorf("%s = %q (no value %v): %v", tt.key, tt.value, tt.noValue, err)
			continue
		}
		var got any
		switch tt.want.(type) {
		case int64:
			got = c.Int(tt.key)
		case float64:
			got = c.Float(tt.key)
		case bool:
			got = c.Bool(tt.key)
		case string:
			got = c.String(tt.key)
		}
		if got != tt.want {
			t.Errorf("%s = %q (no value %v): got %v, want %v", tt.key, tt.value, tt.noValue, got, tt.want)
		}
	}
}

func TestResolveInvalidValues(t *testing.T) {
	noValue := func(e Entry) Entry { e.NoValue = true; return e }
	tests := []struct {
		entry Entry
		want  string
	}{
		{fe(3, "yoimem.search.maxResults", "lots"), `.yoi/config:3: yoimem.search.maxResults = "lots": expected a whole number`},
		{fe(3, "yoimem.search.maxresults", ""), `.yoi/config:3: yoimem.search.maxResults = "": expected a whole number`},
		{fe(3, "yoimem.search.maxResults", "-1"), `.yoi/config:3: yoimem.search.maxResults = "-1": expected a whole number >= 0`},
		{fe(3, "yoimem.search.maxResults", "1.5"), `.yoi/config:3: yoimem.search.maxResults = "1.5": expected a whole number`},
		{fe(3, "yoimem.search.maxResults", "0x10"), `.yoi/config:3: yoimem.search.maxResults = "0x10": expected a whole number`},
		{fe(3, "yoimem.search.maxResults", "+5"), `.yoi/config:3: yoimem.search.maxResults = "+5": expected a whole number`},
		{fe(3, "yoimem.search.maxResults", "5kb"), `.yoi/config:3: yoimem.search.maxResults = "5kb": expected a whole number`},
		{fe(3, "yoimem.search.maxResults", "k"), `.yoi/config:3: yoimem.search.maxResults = "k": expected a whole number`},
		{fe(3, "yoimem.search.maxResults", "9223372036854775808"), `.yoi/config:3: yoimem.search.maxResults = "9223372036854775808": expected a whole number no larger than 9223372036854775807`},
		{fe(3, "yoimem.search.maxResults", "8589934592g"), `.yoi/config:3: yoimem.search.maxResults = "8589934592g": expected a whole number no larger than 9223372036854775807`},
		{noValue(fe(3, "yoimem.search.maxResults", "")), `.yoi/config:3: yoimem.search.maxResults has no value: expected a whole number`},
		{fe(7, "yoimem.lint.maxFileBytes", "big"), `.yoi/config:7: yoimem.lint.maxFileBytes = "big": expected a size in bytes, such as 262144, 256k or 1m`},
		{fe(7, "yoimem.lint.maxFileBytes", "-1k"), `.yoi/config:7: yoimem.lint.maxFileBytes = "-1k": expected a size in bytes >= 0`},
		{fe(7, "yoimem.lint.maxFileBytes", "1t"), `.yoi/config:7: yoimem.lint.maxFileBytes = "1t": expected a size in bytes, such as 262144, 256k or 1m`},
		{ge("yoimem.lint.lossratio", "half"), `git config (local: .git/config): yoimem.lint.lossRatio = "half": expected a number`},
		{ge("yoimem.lint.lossratio", "-0.5"), `git config (local: .git/config): yoimem.lint.lossRatio = "-0.5": expected a number >= 0`},
		{ge("yoimem.lint.lossratio", "NaN"), `git config (local: .git/config): yoimem.lint.lossRatio = "NaN": expected a finite number`},
		{ge("yoimem.lint.lossratio", "inf"), `git config (local: .git/config): yoimem.lint.lossRatio = "inf": expected a finite number`},
		{ge("yoimem.lint.lossratio", "1e999"), `git config (local: .git/config): yoimem.lint.lossRatio = "1e999": expected a finite number`},
		{ge("yoimem.lint.lossratio", ""), `git config (local: .git/config): yoimem.lint.lossRatio = "": expected a number`},
		{ce("yoimem.lint.similarSlugs", "maybe"), `flag -c: yoimem.lint.similarSlugs = "maybe": expected true or false (or yes/no, on/off, 1/0)`},
		{ce("yoimem.lint.similarSlugs", "2"), `flag -c: yoimem.lint.similarSlugs = "2": expected true or false (or yes/no, on/off, 1/0)`},
		{noValue(ce("yoimem.branch", "")), `flag -c: yoimem.branch has no value: expected a string`},
		{Entry{Name: "yoimem.metrics.window", Value: "a\nb", Origin: Origin{Kind: Git, Detail: "command command line:"}},
			`git config (command line): yoimem.metrics.window = "a\nb": expected a whole number`},
	}
	for _, tt := range tests {
		c, _, err := Resolve([]Entry{tt.entry}, nil, nil)
		if err == nil {
			t.Errorf("%+v: no error, value %v", tt.entry, c.All())
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt.entry, err, tt.want)
		}
		var ve *ValueError
		if !errors.As(err, &ve) || ve.Entry != tt.entry {
			t.Errorf("%+v: error %#v is not a *ValueError for the entry", tt.entry, err)
		}
		if c != nil {
			t.Errorf("%+v: Resolve returned a config with the error", tt.entry)
		}
	}
}

func TestResolveReportsEveryBadValue(t *testing.T) {
	file := []Entry{fe(2, "yoimem.search.maxResults", "x"), fe(3, "yoimem.nope", "1")}
	git := []Entry{ge("yoimem.lint.lossratio", "y")}
	flags := []Entry{ce("yoimem.search.maxResults", "5")} // overrides, but the file is still wrong
	_, warnings, err := Resolve(file, git, flags)
	want := ".yoi/config:2: yoimem.search.maxResults = \"x\": expected a whole number\n" +
		"git config (local: .git/config): yoimem.lint.lossRatio = \"y\": expected a number"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
	if len(warnings) != 1 || warnings[0].Entry != file[1] {
		t.Errorf("warnings = %v, want the unknown key", warnings)
	}
}

func TestResolveUnknownKeys(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"yoimem.search.maxResult", "unknown key yoimem.search.maxResult; did you mean yoimem.search.maxResults?"},
		{"yoimem.serch.maxresults", "unknown key yoimem.serch.maxresults; did you mean yoimem.search.maxResults?"},
		{"yoimem.lint.decisonChars", "unknown key yoimem.lint.decisonChars; did you mean yoimem.lint.decisionChars?"},
		{"yoimem.brnch", "unknown key yoimem.brnch; did you mean yoimem.branch?"},
		{"yoimem.lint.lowImportanceChars", "unknown key yoimem.lint.lowImportanceChars; did you mean yoimem.lint.lowImportanceTokens?"},
		{"yoimem.Search.maxResults", "unknown key yoimem.Search.maxResults; did you mean yoimem.search.maxResults? (subsection names are case-sensitive)"},
		{"yoimem.maxResults", "unknown key yoimem.maxResults; did you mean yoimem.search.maxResults?"},
		{"yoimem.search.tokenThreshold", "unknown key yoimem.search.tokenThreshold; did you mean yoimem.extract.tokenThreshold?"},
		{"yoimem.model", "unknown key yoimem.model; did you mean yoimem.extract.model or yoimem.consolidate.model?"},
		{"yoimem.frobnicate", "unknown key yoimem.frobnicate"},
		{"yoimem.search.x", "unknown key yoimem.search.x"},
		{"core.editor", `unknown key core.editor: git yoimem settings start with "yoimem."`},
	}
	for _, tt := range tests {
		e := fe(4, tt.name, "1")
		c, warnings, err := Resolve([]Entry{e}, nil, nil)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if len(warnings) != 1 || warnings[0].Message != tt.want || warnings[0].Entry != e {
			t.Errorf("%s: warnings %+v\nwant %q", tt.name, warnings, tt.want)
			continue
		}
		if s := warnings[0].String(); s != ".yoi/config:4: "+tt.want {
			t.Errorf("%s: Warning.String() = %q", tt.name, s)
		}
		if !reflect.DeepEqual(c.All(), Defaults().All()) {
			t.Errorf("%s: an unknown key changed the config", tt.name)
		}
	}
}

func TestGetters(t *testing.T) {
	c, _, err := Resolve(nil, nil, []Entry{ce("yoimem.lint.lossRatio", "0.75"), ce("yoimem.lint.similarSlugs", "off"), ce("yoimem.consolidate.stagingBytes", "1m")})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Float(KeyLintLossRatio); got != 0.75 {
		t.Errorf("Float(lossRatio) = %v", got)
	}
	if got := c.Bool(KeyLintSimilarSlugs); got {
		t.Errorf("Bool(similarSlugs) = %v", got)
	}
	if got := c.Int(KeyConsolidateStagingBytes); got != 1<<20 {
		t.Errorf("Int(stagingBytes) = %v", got)
	}
	if got := c.String(KeyConsolidateStagingBytes); got != "1m" {
		t.Errorf("String(stagingBytes) = %q, want the raw value", got)
	}
	if got := c.Int("YOIMEM.search.MAXRESULTS"); got != 20 {
		t.Errorf("Int with other case = %v", got)
	}
	// Wrong type or unknown name: the zero value, no panic.
	if c.Int(KeyLintLossRatio) != 0 || c.Float(KeySearchMaxResults) != 0 || c.Bool(KeyBranch) || c.Int(KeyBranch) != 0 {
		t.Errorf("a getter of the wrong type returned a value")
	}
	if c.Int("yoimem.nope") != 0 || c.String("yoimem.nope") != "" || c.Bool("yoimem.nope") || c.Float("yoimem.nope") != 0 {
		t.Errorf("a getter of an unknown name returned a value")
	}
	if v, ok := c.Get("yoimem.nope"); ok || !reflect.DeepEqual(v, Value{}) {
		t.Errorf("Get(unknown) = %+v, %v", v, ok)
	}
}

func TestAll(t *testing.T) {
	c, _, err := Resolve([]Entry{fe(2, "yoimem.branch", "b")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := c.All()
	keys := Keys()
	if len(all) != len(keys) {
		t.Fatalf("All() has %d values, want %d", len(all), len(keys))
	}
	for i, v := range all {
		if v.Key != keys[i] {
			t.Errorf("All()[%d] is %s, want %s", i, v.Key.Name, keys[i].Name)
		}
		if i > 0 && (v.Raw != keys[i].Default || v.Origin.Kind != Default) {
			t.Errorf("All()[%d] = %+v, want the default", i, v)
		}
	}
	if all[0].Raw != "b" || all[0].Origin.Kind != File {
		t.Errorf("All()[0] = %+v", all[0])
	}
	all[0].Raw = "changed"
	if c.String(KeyBranch) != "b" {
		t.Errorf("changing All()'s result changed the config")
	}
}

func TestNilAndZeroConfigHoldDefaults(t *testing.T) {
	var nilConfig *Config
	for name, c := range map[string]*Config{"nil": nilConfig, "zero": {}, "Defaults": Defaults()} {
		if got := c.Int(KeySearchMaxResults); got != 20 {
			t.Errorf("%s: maxResults = %d", name, got)
		}
		if got := c.String(KeyBranch); got != "yoimem/memory" {
			t.Errorf("%s: branch = %q", name, got)
		}
		if got := c.Float(KeyMetricsCandidateFrequency); got != 2 {
			t.Errorf("%s: candidateFrequency = %v", name, got)
		}
		if !c.Bool(KeyLintSimilarSlugs) {
			t.Errorf("%s: similarSlugs = false", name)
		}
		if len(c.All()) != len(Keys()) {
			t.Errorf("%s: All() has %d values", name, len(c.All()))
		}
	}
}

// TestResolveCommittedFileCannotRunCommands: the committed .yoi/config may
// choose an API model but not a command: or replay: model or a base URL
// (they would run code or send keys on every teammate's machine); git
// config and flags may.
func TestResolveCommittedFileCannotRunCommands(t *testing.T) {
	file := Origin{Kind: File, Detail: ".yoi/config"}
	entries := []Entry{
		{Name: KeyExtractModel, Value: "command:touch /tmp/pwned", Origin: file, Line: 1},
		{Name: KeyConsolidateModel, Value: " replay:/etc/passwd", Origin: file, Line: 2},
		{Name: KeyLLMAnthropicBaseURL, Value: "http://evil.example", Origin: file, Line: 3},
		{Name: KeyLLMOpenAIBaseURL, Value: "http://evil.example", Origin: file, Line: 4},
	}
	c, warnings, err := Resolve(entries, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 4 {
		t.Errorf("%d warnings, want 4: %v", len(warnings), warnings)
	}
	for _, k := range []string{KeyExtractModel, KeyConsolidateModel, KeyLLMAnthropicBaseURL, KeyLLMOpenAIBaseURL} {
		if v := c.String(k); v != "" {
			t.Errorf("%s = %q from the committed file", k, v)
		}
	}
	// An API model is fine in the file; anything is fine from git config.
	git := Origin{Kind: Git, Detail: "local file:.git/config"}
	c, warnings, err = Resolve([]Entry{{Name: KeyExtractModel, Value: "anthropic:claude-haiku-4-5", Origin: file}},
		[]Entry{{Name: KeyConsolidateModel, Value: "command:claude -p", Origin: git}, {Name: KeyLLMOpenAIBaseURL, Value: "http://localhost:11434/v1", Origin: git}}, nil)
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	if c.String(KeyExtractModel) != "anthropic:claude-haiku-4-5" || c.String(KeyConsolidateModel) != "command:claude -p" || c.String(KeyLLMOpenAIBaseURL) != "http://localhost:11434/v1" {
		t.Errorf("trusted values lost: %q %q %q", c.String(KeyExtractModel), c.String(KeyConsolidateModel), c.String(KeyLLMOpenAIBaseURL))
	}
}

// TestMessagesCapWhatTheyEcho: an error or warning repeats at most 80
// bytes of a value or name, escaped, with its size.
func TestMessagesCapWhatTheyEcho(t *testing.T) {
	long := strings.Repeat("9", 5000)
	_, _, err := Resolve(nil, nil, []Entry{ce("yoimem.search.maxResults", long+"x")})
	if err == nil || !strings.Contains(err.Error(), `"`+strings.Repeat("9", 80)+`…" (5001 bytes)`) || strings.Contains(err.Error(), strings.Repeat("9", 81)) {
		t.Errorf("long value: %v", err)
	}
	_, _, err = Resolve(nil, nil, []Entry{ce("yoimem.search.maxResults", "1\x1b[2J\n")})
	if err == nil || !strings.Contains(err.Error(), `"1\x1b[2J\n"`) {
		t.Errorf("control characters: %v", err)
	}
	_, warnings, _ := Resolve(nil, nil, []Entry{ce("yoimem."+strings.Repeat("k", 500), "1")})
	if len(warnings) != 1 || strings.Contains(warnings[0].Message, strings.Repeat("k", 81)) || !strings.Contains(warnings[0].Message, "(507 bytes)") {
		t.Errorf("long key: %v", warnings)
	}
	if _, err := ParseFlag(strings.Repeat("b", 3000)); err == nil || strings.Contains(err.Error(), strings.Repeat("b", 81)) {
		t.Errorf("long flag: %v", err)
	}
}

func TestSuggestKeys(t *testing.T) {
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"yoimem.serach.maxResults", []string{"yoimem.search.maxResults"}},
		{"yoimem.search.maxresult", []string{"yoimem.search.maxResults"}},
		{"yoimem.Search.maxResults", []string{"yoimem.search.maxResults"}},
		{"yoimem.model", []string{"yoimem.extract.model", "yoimem.consolidate.model"}},
		{"search.maxResults", []string{"yoimem.search.maxResults"}},
		{"yoimem.frobnicate", nil},
		{"core.editor", nil},
	} {
		if got := SuggestKeys(tt.name); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SuggestKeys(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
