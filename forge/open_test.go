package forge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	head  = "yoimem/memory"
	base  = "main"
	title = "yoimem: memory for review"
)

func request(t *testing.T, s *standin, remote string, body []byte) Request {
	return Request{
		Dir:       t.TempDir(),
		RemoteURL: remote,
		Head:      head,
		Base:      base,
		Title:     title,
		Body:      body,
		BodyFile:  filepath.Join(t.TempDir(), "yoimem-pr.md"),
		Env:       s.env(),
	}
}

// bodies are descriptions that must reach the tool byte for byte: shell
// and flag syntax, and one far past the argument limit of one argv entry.
func bodies() map[string][]byte {
	big := bytes.Repeat([]byte("- `.yoi/knowledge/retry.md` updated: the backoff doubles; see #retry\n"), 200<<10/70)
	return map[string][]byte{
		"plain":  []byte("## Memory\n\n- added `.yoi/knowledge/retry.md`\n"),
		"syntax": []byte("-- --body-file /etc/passwd\n`rm -rf /` $(echo pwned) 'quoted' \"double\" \\ \n--title=x\n"),
		"200KiB": big,
		"empty":  {},
	}
}

func TestOpenGitHubCreates(t *testing.T) {
	for name, body := range bodies() {
		t.Run(name, func(t *testing.T) {
			s := newStandin(t, "gh")
			s.answer("gh-auth-status", "", "github.com\n  ✓ Logged in to github.com account someone (keyring)\n", 0)
			s.answer("gh-pr-list", "[]\n", "", 0)
			s.answer("gh-pr-create", "https://github.com/o/r/pull/12\n", "\nCreating pull request for yoimem/memory into main in o/r\n\n", 0)
			got, err := Open(context.Background(), request(t, s, "git@github.com:o/r.git", body))
			if err != nil {
				t.Fatal(err)
			}
			want := Result{Action: Created, URL: "https://github.com/o/r/pull/12", Number: 12}
			if got != want {
				t.Errorf("Open = %#v, want %#v", got, want)
			}
			calls := s.wantCalls([][]string{
				{"gh", "auth", "status", "--hostname", "github.com"},
				{"gh", "pr", "list", "--repo", "github.com/o/r", "--head", head, "--base", base, "--state", "open", "--json", "number,url,isCrossRepository"},
				{"gh", "pr", "create", "--repo", "github.com/o/r", "--head", head, "--base", base, "--title", title, "--body-file", "-"},
			}, map[int][]byte{2: body})
			for _, kv := range []string{"GH_PROMPT_DISABLED=1", "GH_PAGER=cat", "GH_NO_UPDATE_NOTIFIER=1"} {
				if !strings.Contains(calls[2].Env, kv+"\n") {
					t.Errorf("gh ran without %s", kv)
				}
			}
		})
	}
}

func TestOpenGitHubUpdates(t *testing.T) {
	s := newStandin(t, "gh")
	s.answer("gh-auth-status", "", "github.com\n  ✓ Logged in to ghe.corp.example account someone (GH_ENTERPRISE_TOKEN)\n", 0)
	s.answer("gh-pr-list", `[{"isCrossRepository":true,"number":9,"url":"https://ghe.corp.example/o/r/pull/9"},{"isCrossRepository":false,"number":7,"url":"https://ghe.corp.example/o/r/pull/7"}]`+"\n", "", 0)
	s.answer("gh-pr-edit", "https://ghe.corp.example/o/r/pull/7\n", "", 0)
	body := bodies()["syntax"]
	req := request(t, s, "https://ghe.corp.example/o/r.git", body)
	req.Env = s.env("GH_HOST=ghe.corp.example")
	got, err := Open(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Action: Updated, URL: "https://ghe.corp.example/o/r/pull/7", Number: 7}); got != want {
		t.Errorf("Open = %#v, want %#v", got, want)
	}
	s.wantCalls([][]string{
		{"gh", "auth", "status", "--hostname", "ghe.corp.example"},
		{"gh", "pr", "list", "--repo", "ghe.corp.example/o/r", "--head", head, "--base", base, "--state", "open", "--json", "number,url,isCrossRepository"},
		{"gh", "pr", "edit", "7", "--repo", "ghe.corp.example/o/r", "--body-file", "-"},
	}, map[int][]byte{2: body})
}

func TestOpenGitLabCreates(t *testing.T) {
	s := newStandin(t, "glab")
	s.answer("glab-auth-status", "", "gitlab.com\n  ✓ Logged in to gitlab.com as someone (/home/someone/.config/glab-cli/config.yml)\n", 0)
	s.answer("glab-mr-list", "null\n", "", 0)
	s.answer("glab-api-POST", `{"id":9901,"iid":4,"project_id":77,"title":"`+title+`","state":"opened","web_url":"https://gitlab.com/g/sub/r/-/merge_requests/4"}`, "", 0)
	body := bodies()["200KiB"]
	got, err := Open(context.Background(), request(t, s, "https://gitlab.com/g/sub/r.git", body))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Action: Created, URL: "https://gitlab.com/g/sub/r/-/merge_requests/4", Number: 4}); got != want {
		t.Errorf("Open = %#v, want %#v", got, want)
	}
	calls := s.wantCalls([][]string{
		{"glab", "auth", "status", "--hostname", "gitlab.com"},
		{"glab", "mr", "list", "--repo", "https://gitlab.com/g/sub/r", "--source-branch", head, "--target-branch", base, "--output", "json"},
		{"glab", "api", "-X", "POST", "--hostname", "gitlab.com", "projects/g%2Fsub%2Fr/merge_requests",
			"--input", "-", "-H", "Content-Type: application/json"},
	}, nil)
	wantJSON(t, calls[2].Stdin, map[string]string{"source_branch": head, "target_branch": base, "title": title, "description": string(body)})
	for _, kv := range []string{"GLAB_NO_PROMPT=true", "GLAB_PAGER=cat", "GLAB_CHECK_UPDATE=false"} {
		if !strings.Contains(calls[2].Env, kv+"\n") {
			t.Errorf("glab ran without %s", kv)
		}
	}
}

func TestOpenGitLabUpdates(t *testing.T) {
	s := newStandin(t, "glab")
	s.answer("glab-auth-status", "", "gitlab.example.org\n  ✓ Logged in to gitlab.example.org as someone\n", 0)
	s.answer("glab-mr-list", `[{"id":32,"iid":5,"project_id":12,"source_project_id":40,"target_project_id":12,"state":"opened","source_branch":"yoimem/memory","target_branch":"main","web_url":"https://gitlab.example.org/g/r/-/merge_requests/5"},`+
		`{"id":31,"iid":3,"project_id":12,"source_project_id":12,"target_project_id":12,"state":"opened","source_branch":"yoimem/memory","target_branch":"main","web_url":"https://gitlab.example.org/g/r/-/merge_requests/3"}]`+"\n", "", 0)
	s.answer("glab-api-PUT", `{"id":31,"iid":3,"state":"opened","web_url":"https://gitlab.example.org/g/r/-/merge_requests/3"}`, "", 0)
	body := bodies()["syntax"]
	got, err := Open(context.Background(), request(t, s, "ssh://git@gitlab.example.org:2222/g/r.git", body))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Action: Updated, URL: "https://gitlab.example.org/g/r/-/merge_requests/3", Number: 3}); got != want {
		t.Errorf("Open = %#v, want %#v", got, want)
	}
	calls := s.wantCalls([][]string{
		{"glab", "auth", "status", "--hostname", "gitlab.example.org"},
		{"glab", "mr", "list", "--repo", "https://gitlab.example.org/g/r", "--source-branch", head, "--target-branch", base, "--output", "json"},
		{"glab", "api", "-X", "PUT", "--hostname", "gitlab.example.org", "projects/g%2Fr/merge_requests/3",
			"--input", "-", "-H", "Content-Type: application/json"},
	}, nil)
	wantJSON(t, calls[2].Stdin, map[string]string{"description": string(body)})
}

func TestOpenManual(t *testing.T) {
	body := bodies()["syntax"]
	tests := []struct {
		name    string
		tools   []string
		remote  string
		answers func(s *standin)
		calls   int
		reason  string
		command string // with BODY for the body file
		webURL  string
	}{
		{
			name: "gh not logged in", tools: []string{"gh"}, remote: "https://github.com/o/r",
			answers: func(s *standin) {
				s.answer("gh-auth-status", "", "You are not logged into any GitHub hosts. To log in, run: gh auth login\n", 1)
			},
			calls:   1,
			reason:  "gh is not logged in to github.com",
			command: "gh pr create --repo github.com/o/r --head yoimem/memory --base main --title 'yoimem: memory for review' --body-file BODY",
			webURL:  "https://github.com/o/r",
		},
		{
			name: "gh missing", remote: "git@github.com:o/r.git",
			reason:  "gh is not installed",
			command: "gh pr create --repo github.com/o/r --head yoimem/memory --base main --title 'yoimem: memory for review' --body-file BODY",
			webURL:  "https://github.com/o/r",
		},
		{
			name: "glab not logged in", tools: []string{"glab"}, remote: "git@gitlab.com:g/r.git",
			answers: func(s *standin) {
				s.answer("glab-auth-status", "", "No GitLab instances have been authenticated with glab. Run `glab auth login` to authenticate.\n", 1)
			},
			calls:   1,
			reason:  "glab is not logged in to gitlab.com",
			command: `glab mr create --repo https://gitlab.com/g/r --source-branch yoimem/memory --target-branch main --title 'yoimem: memory for review' --yes --description="$(cat BODY)"`,
			webURL:  "https://gitlab.com/g/r",
		},
		{
			name: "unknown host", tools: []string{"gh", "glab"}, remote: "git@git.example.net:o/r.git",
			reason: "git.example.net is not a GitHub or GitLab host",
			webURL: "https://git.example.net/o/r",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandin(t, tt.tools...)
			if tt.answers != nil {
				tt.answers(s)
			}
			req := request(t, s, tt.remote, body)
			got, err := Open(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if got.Action != Manual || got.BodyFile != req.BodyFile || got.WebURL != tt.webURL || got.URL != "" || got.Number != 0 {
				t.Errorf("Open = %#v, want the manual action, body file %s and web page %s", got, req.BodyFile, tt.webURL)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("reason %q does not say %q", got.Reason, tt.reason)
			}
			if want := strings.ReplaceAll(tt.command, "BODY", req.BodyFile); got.Command != want {
				t.Errorf("command\n got %s\nwant %s", got.Command, want)
			}
			written, err := os.ReadFile(req.BodyFile)
			if err != nil || !bytes.Equal(written, body) {
				t.Errorf("body file: %v, %q; want the body byte for byte", err, written)
			}
			if n := len(s.calls()); n != tt.calls {
				t.Errorf("%d tool calls, want %d: %v", n, tt.calls, s.calls())
			}
		})
	}
}

func TestOpenToolFails(t *testing.T) {
	tests := []struct {
		name    string
		tool    string
		remote  string
		answers func(s *standin)
		notCLI  bool // the tool succeeded; its output is wrong
		want    []string
	}{
		{
			name: "gh pr create fails", tool: "gh", remote: "https://github.com/o/r",
			answers: func(s *standin) {
				s.answer("gh-auth-status", "", "", 0)
				s.answer("gh-pr-list", "[]", "", 0)
				s.answer("gh-pr-create", "", "line one of the noise\npull request create failed: GraphQL: Head sha can't be blank (createPullRequest)\n", 1)
			},
			want: []string{"gh pr create", "exit status 1", "GraphQL: Head sha can't be blank (createPullRequest)"},
		},
		{
			name: "gh pr list prints no JSON", tool: "gh", remote: "https://github.com/o/r",
			answers: func(s *standin) {
				s.answer("gh-auth-status", "", "", 0)
				s.answer("gh-pr-list", "no pull requests match your search\n", "", 0)
			},
			notCLI: true,
			want:   []string{"gh pr list", "not the JSON"},
		},
		{
			name: "glab api fails", tool: "glab", remote: "https://gitlab.com/g/r",
			answers: func(s *standin) {
				s.answer("glab-auth-status", "", "", 0)
				s.answer("glab-mr-list", "[]", "", 0)
				s.answer("glab-api-POST", `{"message":["Another open merge request already exists for this source branch: !3"]}`, "glab: Another open merge request already exists for this source branch: !3 (HTTP 409)\n", 1)
			},
			want: []string{"glab api", "exit status 1", "HTTP 409"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandin(t, tt.tool)
			tt.answers(s)
			_, err := Open(context.Background(), request(t, s, tt.remote, []byte("body\n")))
			var ce *CLIError
			if err == nil || errors.As(err, &ce) == tt.notCLI {
				t.Fatalf("Open error = %v, want an error (a *CLIError: %v)", err, !tt.notCLI)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestOpenRefusesBadBody(t *testing.T) {
	tests := map[string]struct {
		body []byte
		want string
	}{
		"NUL":           {[]byte("ok\nstill ok\x00bad"), "NUL byte at byte 11"},
		"invalid UTF-8": {[]byte("caf\xe9\n"), "invalid UTF-8 at byte 3"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			s := newStandin(t, "gh")
			req := request(t, s, "https://github.com/o/r", tt.body)
			_, err := Open(context.Background(), req)
			var be *BodyError
			if !errors.As(err, &be) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open error = %v, want a *BodyError saying %q", err, tt.want)
			}
			if n := len(s.calls()); n != 0 {
				t.Errorf("%d tool calls, want none", n)
			}
			if _, err := os.Stat(req.BodyFile); !os.IsNotExist(err) {
				t.Errorf("body file written: %v", err)
			}
		})
	}
}

func TestOpenRefusesBadRequest(t *testing.T) {
	s := newStandin(t, "gh")
	tests := map[string]func(r *Request){
		"no head":            func(r *Request) { r.Head = "" },
		"no base":            func(r *Request) { r.Base = "" },
		"no title":           func(r *Request) { r.Title = "" },
		"title on two lines": func(r *Request) { r.Title = "a\nb" },
		"no body file":       func(r *Request) { r.BodyFile = "" },
		"relative body file": func(r *Request) { r.BodyFile = "pr.md" },
	}
	for name, edit := range tests {
		t.Run(name, func(t *testing.T) {
			req := request(t, s, "https://github.com/o/r", []byte("body"))
			edit(&req)
			if _, err := Open(context.Background(), req); err == nil {
				t.Fatal("Open accepted the request")
			}
		})
	}
	if n := len(s.calls()); n != 0 {
		t.Errorf("%d tool calls, want none", n)
	}
}

// A tool that hangs is stopped when the caller's context ends.
func TestOpenStopsAHangingTool(t *testing.T) {
	s := newStandin(t, "gh")
	s.answer("gh-auth-status", "", "", 0)
	s.write("gh-auth-status.sleep", "60")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Open(ctx, request(t, s, "https://github.com/o/r", []byte("body")))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Open error = %v, want the context's deadline", err)
	}
	// and the tool's own children with it
	pid, err := os.ReadFile(filepath.Join(s.dir, "gh-auth-status.sleeper"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if exec.Command("kill", "-0", strings.TrimSpace(string(pid))).Run() != nil {
			break // gone
		}
		if i == 100 {
			t.Fatalf("the tool's child %s still runs", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wantJSON checks that glab api read the fields as a JSON object,
// each string byte for byte.
func wantJSON(t *testing.T, stdin []byte, want map[string]string) {
	t.Helper()
	var got map[string]string
	if err := json.Unmarshal(stdin, &got); err != nil {
		t.Fatalf("glab api read %q, not a JSON object of strings: %v", outStart(stdin), err)
	}
	if len(got) != len(want) {
		t.Errorf("glab api read the fields %v, want %v", keys(got), keys(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("field %s: got %d bytes, want %d (byte for byte)", k, len(got[k]), len(v))
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A fork's request from a branch of the same name is not ours: a new one
// is opened.
func TestOpenSkipsForks(t *testing.T) {
	s := newStandin(t, "gh", "glab")
	s.answer("gh-auth-status", "", "", 0)
	s.answer("gh-pr-list", `[{"isCrossRepository":true,"number":9,"url":"https://github.com/o/r/pull/9"}]`, "", 0)
	s.answer("gh-pr-create", "https://github.com/o/r/pull/10\n", "", 0)
	s.answer("glab-auth-status", "", "", 0)
	s.answer("glab-mr-list", `[{"iid":5,"source_project_id":40,"target_project_id":12,"web_url":"https://gitlab.com/g/r/-/merge_requests/5"}]`, "", 0)
	s.answer("glab-api-POST", `{"iid":6,"web_url":"https://gitlab.com/g/r/-/merge_requests/6"}`, "", 0)
	for remote, want := range map[string]Result{
		"https://github.com/o/r": {Action: Created, URL: "https://github.com/o/r/pull/10", Number: 10},
		"https://gitlab.com/g/r": {Action: Created, URL: "https://gitlab.com/g/r/-/merge_requests/6", Number: 6},
	} {
		got, err := Open(context.Background(), request(t, s, remote, []byte("body\n")))
		if err != nil || got != want {
			t.Errorf("Open(%s) = %#v, %v; want %#v", remote, got, err, want)
		}
	}
}

// GH_HOST and GITLAB_HOST are the tools' default hosts: a repository on
// github.com or gitlab.com is named with its host so that they do not
// send it to the Enterprise or self-managed one.
func TestOpenNamesTheHost(t *testing.T) {
	s := newStandin(t, "gh", "glab")
	s.answer("gh-auth-status", "", "", 0)
	s.answer("gh-pr-list", "[]", "", 0)
	s.answer("gh-pr-create", "https://github.com/o/r/pull/1\n", "", 0)
	s.answer("glab-auth-status", "", "", 0)
	s.answer("glab-mr-list", "[]", "", 0)
	s.answer("glab-api-POST", `{"iid":1,"web_url":"https://gitlab.com/g/r/-/merge_requests/1"}`, "", 0)
	for _, remote := range []string{"git@github.com:o/r.git", "git@gitlab.com:g/r.git"} {
		req := request(t, s, remote, []byte("body\n"))
		req.Env = s.env("GH_HOST=ghe.corp.example", "GITLAB_HOST=gitlab.corp.example")
		if _, err := Open(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"gh pr list": "github.com/o/r", "gh pr create": "github.com/o/r", "glab mr list": "https://gitlab.com/g/r"}
	for _, c := range s.calls() {
		cmd := strings.Join(c.Args[:3], " ")
		if repo, ok := want[cmd]; ok {
			if got := c.Args[4]; got != repo {
				t.Errorf("%s --repo %s, want %s", cmd, got, repo)
			}
			delete(want, cmd)
		}
	}
	if len(want) > 0 {
		t.Errorf("not run: %v", want)
	}
}

// A remote no tool serves is named in the reason without its password.
func TestOpenManualHidesCredentials(t *testing.T) {
	s := newStandin(t)
	got, err := Open(context.Background(), request(t, s, "rsync://someone:s3cret@files.example/o/r", []byte("body")))
	if err != nil {
		t.Fatal(err)
	}
	if got.Action != Manual || strings.Contains(got.Reason, "s3cret") || !strings.Contains(got.Reason, "files.example") {
		t.Errorf("Open = %#v; want the manual action, a reason naming the host and not the password", got)
	}
}

// A run whose context is already over runs and writes nothing.
func TestOpenCancelled(t *testing.T) {
	s := newStandin(t) // no gh: the manual path, which writes
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := request(t, s, "https://github.com/o/r", []byte("body"))
	if _, err := Open(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("Open error = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(req.BodyFile); !os.IsNotExist(err) {
		t.Errorf("body file written: %v", err)
	}
}

// A tool that prints without end is stopped at the output limit.
func TestOpenToolOutputLimit(t *testing.T) {
	s := newStandin(t, "gh")
	s.answer("gh-auth-status", "", "", 0)
	s.answer("gh-pr-list", strings.Repeat("[", 5<<20), "", 0)
	_, err := Open(context.Background(), request(t, s, "https://github.com/o/r", []byte("body")))
	var ce *CLIError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "gh pr list: printed more than 4,194,304 bytes") {
		t.Fatalf("Open error = %v, want gh pr list stopped at the output limit", err)
	}
}
