package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// isolatedEnv returns an environment for git that reads no system config
// and a global config of the test's own, empty unless the test writes it,
// so that the user's settings never leak into the tests.
func isolatedEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + filepath.Join(home, "global.gitconfig"),
		"LC_ALL=C",
	}
}

// testRepo is a temporary repository with an isolated git environment.
type testRepo struct {
	t      *testing.T
	dir    string
	env    []string
	global string
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	r := &testRepo{t: t, dir: t.TempDir(), env: isolatedEnv(t)}
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_GLOBAL="); ok {
			r.global = v
		}
	}
	r.git("init", "-q")
	return r
}

// git runs git in the repository and fails the test if it fails.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	out, err := r.runner(nil)(context.Background(), args...)
	if err != nil {
		r.t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// runner returns a GitRunner for the repository, with extra environment.
func (r *testRepo) runner(extraEnv []string) GitRunner {
	return func(ctx context.Context, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = r.dir
		cmd.Env = append(append([]string(nil), r.env...), extraEnv...)
		return cmd.Output()
	}
}

func (r *testRepo) appendFile(path, text string) {
	r.t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o666)
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		r.t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		r.t.Fatal(err)
	}
}

func TestFromGit(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "--global", "yoimem.branch", "global branch = x\nsecond line")
	r.git("config", "--global", "yoimem.search.maxResults", "7")
	r.git("config", "yoimem.search.maxResults", "5")
	r.git("config", "yoimem.Search.excerptLines", "3")
	r.git("config", "yoimem.extract.model", " spaced  value ")
	r.git("config", "core.editor", "not-ours")
	// git config cannot write a key without a value: write it by hand.
	r.appendFile(filepath.Join(r.dir, ".git", "config"), "[yoimem \"lint\"]\n\tsimilarSlugs\n\tlossRatio =\n")

	got, err := FromGit(context.Background(), r.runner([]string{
		"GIT_CONFIG_COUNT=2",
		"GIT_CONFIG_KEY_0=yoimem.context.budgetChars", "GIT_CONFIG_VALUE_0=1k",
		"GIT_CONFIG_KEY_1=yoimem.metrics.window", "GIT_CONFIG_VALUE_1=a=b",
	}))
	if err != nil {
		t.Fatalf("FromGit: %v", err)
	}
	global := Origin{Kind: Git, Detail: "global file:" + r.global}
	local := Origin{Kind: Git, Detail: "local file:.git/config"}
	command := Origin{Kind: Git, Detail: "command command line:"}
	want := []Entry{
		{Name: "yoimem.branch", Value: "global branch = x\nsecond line", Origin: global},
		{Name: "yoimem.search.maxresults", Value: "7", Origin: global},
		{Name: "yoimem.search.maxresults", Value: "5", Origin: local},
		{Name: "yoimem.Search.excerptlines", Value: "3", Origin: local},
		{Name: "yoimem.extract.model", Value: " spaced  value ", Origin: local},
		{Name: "yoimem.lint.similarslugs", NoValue: true, Origin: local},
		{Name: "yoimem.lint.lossratio", Value: "", Origin: local},
		{Name: "yoimem.context.budgetchars", Value: "1k", Origin: command},
		{Name: "yoimem.metrics.window", Value: "a=b", Origin: command},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromGit\n got %#v\nwant %#v", got, want)
	}
	if s := got[2].Origin.String(); s != "git config (local: .git/config)" {
		t.Errorf("local origin = %q", s)
	}

	// The entries resolve as git would: local wins over global.
	c, warnings, err := Resolve(nil, got[:6], nil)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if n := c.Int(KeySearchMaxResults); n != 5 {
		t.Errorf("maxResults = %d, want 5 from the local scope", n)
	}
	if !c.Bool(KeyLintSimilarSlugs) {
		t.Errorf("similarSlugs without value should be true")
	}
	if len(warnings) != 1 || warnings[0].String() != "git config (local: .git/config): unknown key yoimem.Search.excerptlines; did you mean yoimem.search.excerptLines? (subsection names are case-sensitive)" {
		t.Errorf("warnings = %v", warnings)
	}
}

func TestFromGitCommandLineFlag(t *testing.T) {
	r := newTestRepo(t)
	run := r.runner(nil)
	withC := func(ctx context.Context, args ...string) ([]byte, error) {
		return run(ctx, append([]string{"-c", "yoimem.lint.similarSlugs", "-c", "yoimem.branch=x y"}, args...)...)
	}
	got, err := FromGit(context.Background(), withC)
	if err != nil {
		t.Fatal(err)
	}
	command := Origin{Kind: Git, Detail: "command command line:"}
	want := []Entry{
		{Name: "yoimem.lint.similarslugs", NoValue: true, Origin: command},
		{Name: "yoimem.branch", Value: "x y", Origin: command},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromGit\n got %#v\nwant %#v", got, want)
	}
}

func TestFromGitIncludedFile(t *testing.T) {
	r := newTestRepo(t)
	inc := filepath.Join(t.TempDir(), "included")
	r.appendFile(inc, "[yoimem]\n\tbranch = from-include\n")
	r.git("config", "include.path", inc)
	got, err := FromGit(context.Background(), r.runner(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "yoimem.branch", Value: "from-include", Origin: Origin{Kind: Git, Detail: "local file:" + inc}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromGit\n got %#v\nwant %#v", got, want)
	}
}

func TestFromGitNoKeys(t *testing.T) {
	r := newTestRepo(t)
	r.git("config", "core.editor", "vi")
	r.git("config", "--global", "yoimemx.branch", "not ours")
	got, err := FromGit(context.Background(), r.runner(nil))
	if err != nil || got != nil {
		t.Errorf("FromGit = %#v, %v; want nil, nil", got, err)
	}
}

func TestFromGitBrokenConfig(t *testing.T) {
	r := newTestRepo(t)
	r.appendFile(filepath.Join(r.dir, ".git", "config"), "[yoimem\n")
	_, err := FromGit(context.Background(), r.runner(nil))
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("error = %v, want an *exec.ExitError in it", err)
	}
	if !strings.HasPrefix(err.Error(), "reading git config yoimem.*: ") || !strings.Contains(err.Error(), "bad config line") {
		t.Errorf("error = %q, want git's message in it", err)
	}
}

type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }
func (e exitError) ExitCode() int { return int(e) }

func TestFromGitRunner(t *testing.T) {
	notFound := fmt.Errorf("running git: %w", exec.ErrNotFound)
	tests := []struct {
		name    string
		out     string
		err     error
		want    []Entry
		wantErr string
	}{
		{name: "no match", err: exitError(1)},
		{name: "no match, wrapped", err: fmt.Errorf("git: %w", exitError(1))},
		{name: "exit 1 with output", out: "local\x00file:x\x00yoimem.a\n1\x00", err: exitError(1),
			wantErr: "reading git config yoimem.*: exit status 1"},
		{name: "exit 3", err: exitError(3), wantErr: "reading git config yoimem.*: exit status 3"},
		{name: "git missing", err: notFound, wantErr: "reading git config yoimem.*: running git: " + exec.ErrNotFound.Error()},
		{name: "two records", out: "local\x00file:.git/config\x00yoimem.a\n1\x00global\x00file:/g\x00yoimem.b\x00",
			want: []Entry{
				{Name: "yoimem.a", Value: "1", Origin: Origin{Kind: Git, Detail: "local file:.git/config"}},
				{Name: "yoimem.b", NoValue: true, Origin: Origin{Kind: Git, Detail: "global file:/g"}},
			}},
		{name: "value with NUL-free newlines", out: "local\x00file:c\x00yoimem.a\n\nx\n\x00",
			want: []Entry{{Name: "yoimem.a", Value: "\nx\n", Origin: Origin{Kind: Git, Detail: "local file:c"}}}},
		{name: "no final NUL", out: "local\x00file:c\x00yoimem.a\n1",
			wantErr: "reading git config yoimem.*: output does not end with NUL"},
		{name: "without scope", out: "file:c\x00yoimem.a\n1\x00",
			wantErr: "reading git config yoimem.*: expected records of scope, origin and key, got 2 fields"},
		{name: "empty key", out: "local\x00file:c\x00\n1\x00",
			wantErr: `reading git config yoimem.*: malformed record "local\x00file:c\x00\n1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotArgs []string
			got, err := FromGit(context.Background(), func(_ context.Context, args ...string) ([]byte, error) {
				gotArgs = args
				return []byte(tt.out), tt.err
			})
			wantArgs := []string{"config", "-z", "--show-scope", "--show-origin", "--get-regexp", `^yoimem\.`}
			if !reflect.DeepEqual(gotArgs, wantArgs) {
				t.Errorf("git args = %q, want %q", gotArgs, wantArgs)
			}
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("error = %v, want %q", err, tt.wantErr)
				}
				if tt.err != nil && !errors.Is(err, tt.err) {
					t.Errorf("error %v does not wrap %v", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FromGit = %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
}
