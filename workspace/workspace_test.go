package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/memory"
)

// testRepo is a repository with .yoi/ (a knowledge record) committed, and
// an Env for it with an isolated git.
func testRepo(t *testing.T) (string, Env, *[]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := filepath.Join(t.TempDir(), "repo"), t.TempDir()
	archive := "-- .yoi/knowledge/retry-policy.md --\n---\nkind: rule\ndescription: retries\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n---\nRetry three times with backoff.\n" +
		"-- src/main.go --\npackage main\n"
	if err := fixture.Repo([]byte(archive), dir, home); err != nil {
		t.Fatal(err)
	}
	return dir, envFor(dir, home), new([]string)
}

func envFor(dir, home string) Env {
	environ := fixture.Env(home)
	return Env{
		Dir:     dir,
		Getenv:  func(k string) string { return lookup(environ, k) },
		Environ: func() []string { return append([]string(nil), environ...) },
		Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
}

func withWarnings(env Env, warnings *[]string) Env {
	env.Warn = func(m string) { *warnings = append(*warnings, m) }
	return env
}

func lookup(env []string, k string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}

func runGit(t *testing.T, env Env, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = env.Dir, env.Environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func kindOf(err error) Kind {
	var we *Error
	if errors.As(err, &we) {
		return we.Kind
	}
	return 0
}

func TestLocate(t *testing.T) {
	dir, env, _ := testRepo(t)
	sub := filepath.Join(dir, "src")
	bare := filepath.Join(t.TempDir(), "bare.git")
	runGit(t, env, "init", "-q", "--bare", bare)
	nowhere := t.TempDir()
	outside := t.TempDir()
	inEnv := func(d string) Env { e := env; e.Dir = d; return e }

	for _, tc := range []struct {
		name     string
		env      Env
		opts     Options
		root     string
		kind     Kind
		errMatch string
	}{
		{"top level", env, Options{}, dir, 0, ""},
		{"subdirectory", inEnv(sub), Options{}, dir, 0, ""},
		{"--workspace relative", env, Options{Workspace: "src"}, sub, 0, ""},
		{"--workspace absolute", inEnv(sub), Options{Workspace: sub}, sub, 0, ""},
		{"no repository", inEnv(nowhere), Options{}, "", NotRepository, nowhere + " is not in a git repository"},
		{"bare repository", inEnv(bare), Options{}, "", NoWorkTree, "has no working tree (bare repository or inside .git)"},
		{"--workspace outside", env, Options{Workspace: outside}, "", OutsideWorkTree, "is not in the working tree of the repository at"},
		{"--workspace in .git", env, Options{Workspace: ".git"}, "", OutsideWorkTree, "is not in the working tree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, open := range []func(context.Context, Env, Options) (*Workspace, error){Locate, Find, Open} {
				w, err := open(context.Background(), tc.env, tc.opts)
				if tc.kind != 0 {
					if kindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.errMatch) {
						t.Errorf("error %v (kind %d); want kind %d saying %q", err, kindOf(err), tc.kind, tc.errMatch)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if w.Root != tc.root || w.Repo.TopLevel != dir {
					t.Errorf("root %s, top level %s; want %s, %s", w.Root, w.Repo.TopLevel, tc.root, dir)
				}
			}
		})
	}
}

// fakeGit puts a git first on PATH that logs each call and runs the real
// one, and returns the log.
func fakeGit(t *testing.T) func() []string {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() []string {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return strings.Fields(strings.ReplaceAll(string(b), "\n", " | "))
	}
}

// TestFastPaths: hooks and agents open the workspace every turn; in a
// plain repository at its top, Open and Find run no git process, and git
// is asked for settings only when its config files may hold some. Find
// reads no configuration, so a bad .yoi/config does not stop it.
func TestFastPaths(t *testing.T) {
	dir, env, _ := testRepo(t)
	calls := fakeGit(t)
	w, err := Open(context.Background(), env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := calls(); len(c) != 0 {
		t.Errorf("Open ran git: %v", c)
	}
	if got := w.Config.String(config.KeyBranch); got != "yoimem/memory" {
		t.Errorf("branch %q", got)
	}

	runGit(t, env, "config", "yoimem.search.maxResults", "7")
	calls()
	if w, err = Open(context.Background(), env, Options{}); err != nil {
		t.Fatal(err)
	}
	if c := calls(); len(c) == 0 {
		t.Error("Open did not ask git for the yoimem.* settings of .git/config")
	}
	if got := w.Config.Int(config.KeySearchMaxResults); got != 7 {
		t.Errorf("maxResults %d from git config; want 7", got)
	}

	if err := os.WriteFile(filepath.Join(dir, ".yoi", "config"), []byte("[yoimem \"search\"]\n\tmaxResults = many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Find(context.Background(), env, Options{})
	if err != nil || f.Config != nil {
		t.Fatalf("Find = %v, config %v; want no configuration read", err, f)
	}
	if c := calls(); len(c) != 0 {
		t.Errorf("Find ran git: %v", c)
	}
	if err := f.Configure(context.Background()); kindOf(err) != BadConfigValue {
		t.Errorf("Configure with a bad .yoi/config = %v; want a BadConfigValue error", err)
	}
}

func TestConfigErrors(t *testing.T) {
	dir, env, warnings := testRepo(t)
	env = withWarnings(env, warnings)
	for _, tc := range []struct {
		name  string
		flags []string
		file  string
		kind  Kind
		match string
	}{
		{"not a yoimem key", []string{"search.maxResults=3"}, "", BadConfigFlag, "search.maxResults"},
		{"unknown key: a warning", []string{"yoimem.search.maxResult=3"}, "", 0, ""},
		{"no value", []string{"yoimem.search.maxResults"}, "", BadConfigValue, "has no value"},
		{"bad value", []string{"yoimem.search.maxResults=many"}, "", BadConfigValue, "yoimem.search.maxResults"},
		{"bad branch", []string{"yoimem.branch=a..b"}, "", BadBranch, "yoimem.branch"},
		{"bad base branch in the file", nil, "[yoimem]\n\tbaseBranch = -x\n", BadBranch, "yoimem.baseBranch"},
		{"file that does not parse", nil, "[yoimem\n", BadConfigFile, ".yoi/config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfgFile := filepath.Join(dir, ".yoi", "config")
			os.Remove(cfgFile)
			if tc.file != "" {
				if err := os.WriteFile(cfgFile, []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, open := range []func(context.Context, Env, Options) (*Workspace, error){Open, openSlow} {
				_, err := open(context.Background(), env, Options{Config: tc.flags})
				if tc.kind == 0 && tc.match == "" {
					if err != nil {
						t.Errorf("error %v; want none", err)
					}
					continue
				}
				if err == nil || kindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.match) {
					t.Errorf("error %v (kind %d); want kind %d naming %q", err, kindOf(err), tc.kind, tc.match)
				}
				var we *Error
				if tc.kind == BadConfigFlag && (!errors.As(err, &we) || we.Arg != tc.flags[0]) {
					t.Errorf("a bad -c does not carry the setting as given: %#v", we)
				}
			}
		})
	}
	os.Remove(filepath.Join(dir, ".yoi", "config"))
	*warnings = nil
	if _, err := Open(context.Background(), env, Options{Config: []string{"yoimem.search.maxResults=3"}}); err != nil {
		t.Fatal(err)
	}
	runGit(t, env, "config", "yoimem.search.maxResultz", "3")
	if _, err := Open(context.Background(), env, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "unknown key yoimem.search.maxresultz") {
		t.Errorf("warnings %q; want one naming the unknown key", *warnings)
	}
}

func TestPathsAndSnapshot(t *testing.T) {
	dir, env, _ := testRepo(t)
	w, err := Open(context.Background(), env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	common := filepath.Join(dir, ".git")
	for got, want := range map[string]string{
		w.YoiDir():          filepath.Join(dir, ".yoi"),
		w.StagingDir():      filepath.Join(dir, ".yoi", "memory", "_staging"),
		w.LocalDir():        filepath.Join(common, "yoimem"),
		w.ExtractStateDir(): filepath.Join(common, "yoimem", "extract"),
		w.RecordsLockFile(): filepath.Join(common, "yoimem", "records.lock"),
		w.ConfigFile():      filepath.Join(dir, ".yoi", "config"),
	} {
		if got != want {
			t.Errorf("path %s; want %s", got, want)
		}
	}
	snap, err := w.Snapshot("knowledge")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := snap.Lookup("knowledge/retry-policy.md"); !ok {
		t.Errorf("snapshot lacks the knowledge record: %v", snap.Entries)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".yoi")); err != nil {
		t.Fatal(err)
	}
	_, err = w.Snapshot()
	if kindOf(err) != NoYoi || !errors.Is(err, gitstore.ErrNoYoi) || err.Error() != "no .yoi/ in ." {
		t.Errorf("Snapshot without .yoi/ = %v; want NoYoi saying 'no .yoi/ in .'", err)
	}
	if _, err := w.Searcher().Search(memory.ScopeKnowledge, memory.Query{Text: "retry"}); kindOf(err) != NoYoi {
		t.Errorf("Search without .yoi/ = %v; want NoYoi", err)
	}
}

func TestDisplayAndRelToDir(t *testing.T) {
	for _, tc := range []struct{ dir, p, display, rel string }{
		{"/r", "/r/.yoi/x.md", ".yoi/x.md", ".yoi/x.md"},
		{"/r/src", "/r/.yoi/x.md", "/r/.yoi/x.md", "../.yoi/x.md"},
		{"/r", "/r", ".", "."},
	} {
		if got := Display(tc.dir, tc.p); got != tc.display {
			t.Errorf("Display(%s, %s) = %s; want %s", tc.dir, tc.p, got, tc.display)
		}
		if got := RelToDir(tc.dir, tc.p); got != tc.rel {
			t.Errorf("RelToDir(%s, %s) = %s; want %s", tc.dir, tc.p, got, tc.rel)
		}
	}
}

func TestModels(t *testing.T) {
	_, env, _ := testRepo(t)
	w, err := Open(context.Background(), env, Options{Config: []string{"yoimem.extract.model=replay:answers.json"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Model(config.KeyExtractModel, ""); got != "replay:answers.json" {
		t.Errorf("Model = %q", got)
	}
	if got := w.Model(config.KeyExtractModel, "openai:gpt-5"); got != "openai:gpt-5" {
		t.Errorf("Model with an override = %q", got)
	}
	_, _, err = w.OpenModelFor(config.KeyConsolidateModel, "")
	var me *ModelError
	if !errors.As(err, &me) || !errors.Is(err, ErrNoModel) || err.Error() != "no model for consolidate" {
		t.Errorf("no consolidation model = %v; want 'no model for consolidate'", err)
	}
	_, _, err = w.OpenModelFor(config.KeyExtractModel, "gpt-5")
	if !errors.As(err, &me) || errors.Is(err, ErrNoModel) || !strings.HasPrefix(err.Error(), "yoimem.extract.model: ") || !strings.Contains(err.Error(), "gpt-5") {
		t.Errorf("a model string without a provider = %v; want it named under yoimem.extract.model", err)
	}
	for model, label := range map[string]string{
		"anthropic:claude-haiku-4-5":       "anthropic:claude-haiku-4-5",
		"replay:/home/me/answers.json":     "replay:answers.json",
		"command:/usr/local/bin/claude -p": "command:claude",
		"command:  codex exec":             "command:codex",
	} {
		if got := ModelLabel(model); got != label {
			t.Errorf("ModelLabel(%q) = %q; want %q", model, got, label)
		}
	}
}

func TestUsage(t *testing.T) {
	_, env, _ := testRepo(t)
	w, err := Open(context.Background(), env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag, env, id, from string
	}{
		{"s1", "s2", "s1", "--session"},
		{"", "s2", "s2", "YOIMEM_SESSION"},
		{"", "", "", "YOIMEM_SESSION"},
	} {
		id, from := Session(tc.flag, func(string) string { return tc.env })
		if id != tc.id || from != tc.from {
			t.Errorf("Session(%q, %q) = %q, %q; want %q, %q", tc.flag, tc.env, id, from, tc.id, tc.from)
		}
	}
	if err := w.RecordUse("", "read", ".yoi/knowledge/retry-policy.md"); err != nil {
		t.Fatal(err)
	}
	if events, _ := w.Metrics().Events(); len(events) != 0 {
		t.Errorf("a read outside a session was recorded: %v", events)
	}
	if err := w.RecordUse("s1", "slug", ".yoi/knowledge/retry-policy.md", "knowledge/other.md", "../outside.md"); err != nil {
		t.Fatal(err)
	}
	events, err := w.Metrics().Events()
	if err != nil || len(events) != 2 || events[0].Record != "knowledge/retry-policy.md" || events[0].How != "slug" || events[0].Session != "s1" || !events[0].Time.Equal(env.Now()) {
		t.Errorf("events %+v, %v; want two .yoi/-relative slug reads of s1 (a path outside .yoi/ is none)", events, err)
	}
	stats, _, err := w.UsageStats()
	if err != nil || len(stats) != 2 || stats[0].Known {
		t.Errorf("stats %+v, %v; want two records, frequency unknown without a ledger", stats, err)
	}
}

func TestInit(t *testing.T) {
	dir, env, _ := testRepo(t)
	w, err := Locate(context.Background(), env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".yoi", ".gitignore"), []byte("*.swp"), 0o644)
	created, err := w.Init(env.Now())
	want := ".yoi/memory/decisions/ .yoi/memory/requests/ .yoi/config .yoi/memory/summary.md .yoi/.gitignore"
	if err != nil || strings.Join(created, " ") != want {
		t.Errorf("Init = %q, %v; want %s", created, err, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".yoi", ".gitignore")); string(b) != "*.swp\n/memory/_staging/\n" {
		t.Errorf(".gitignore %q: the line is added, the rest kept", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".yoi", "memory", "summary.md")); !strings.Contains(string(b), "updated_at: 2026-01-02T03:04:05Z") {
		t.Errorf("summary:\n%s", b)
	}
	if created, err := w.Init(env.Now()); err != nil || len(created) != 0 {
		t.Errorf("Init again = %q, %v; want nothing created", created, err)
	}
	os.RemoveAll(filepath.Join(dir, ".yoi"))
	os.WriteFile(filepath.Join(dir, ".yoi"), nil, 0o644)
	if _, err := w.Init(env.Now()); err == nil || err.Error() != ".yoi exists and is not a directory" {
		t.Errorf("Init over a file = %v", err)
	}
}

// TestSearcher: a search finds the record through the catalog, with no
// warning; the search's own errors come back as they are.
func TestSearcher(t *testing.T) {
	_, env, warnings := testRepo(t)
	env = withWarnings(env, warnings)
	w, err := Open(context.Background(), env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := w.Searcher()
	res, err := s.Search(memory.ScopeKnowledge, memory.Query{Text: "backoff"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Path != ".yoi/knowledge/retry-policy.md" {
		t.Fatalf("search: %+v, %v", res, err)
	}
	s.Save()
	if len(*warnings) != 0 {
		t.Errorf("warnings %q", *warnings)
	}
	if _, err := s.Search(memory.ScopeKnowledge, memory.Query{}); !errors.Is(err, memory.ErrEmptyQuery) {
		t.Errorf("an empty query = %v; want memory.ErrEmptyQuery", err)
	}
}
