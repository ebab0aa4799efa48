package forge

import "testing"

func TestDetect(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	none := env()
	tests := []struct {
		name   string
		url    string
		getenv func(string) string
		want   Host
	}{
		{"github https", "https://github.com/o/r.git", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github https no suffix", "https://github.com/o/r", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github https trailing slash", "https://github.com/o/r/", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github https suffix and slash", "https://github.com/o/r.git/", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github https with user", "https://someone:tok@github.com/o/r.git", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github upper-case host", "https://GitHub.com/o/r", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github scp", "git@github.com:o/r.git", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github scp no user", "github.com:o/r", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github ssh url", "ssh://git@github.com/o/r.git", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github ssh over 443", "ssh://git@ssh.github.com:443/o/r.git", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github git+ssh", "git+ssh://git@github.com/o/r", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"github not a repository path", "https://github.com/o/r/tree/main", none, Host{Kind: None, Name: "github.com", Path: "o/r/tree/main", WebURL: "https://github.com/o/r/tree/main"}},
		{"ghe.com tenant", "https://acme.ghe.com/o/r.git", none, Host{GitHub, "acme.ghe.com", "o/r", "https://acme.ghe.com/o/r"}},
		{"enterprise via GH_HOST", "git@git.corp.example:team/app.git", env("GH_HOST", "git.corp.example"), Host{GitHub, "git.corp.example", "team/app", "https://git.corp.example/team/app"}},
		{"enterprise GH_HOST case", "https://Git.Corp.Example/team/app", env("GH_HOST", "git.corp.example"), Host{GitHub, "git.corp.example", "team/app", "https://git.corp.example/team/app"}},
		{"enterprise without GH_HOST", "git@git.corp.example:team/app.git", none, Host{Kind: None, Name: "git.corp.example", Path: "team/app", WebURL: "https://git.corp.example/team/app"}},
		{"gitlab.com https", "https://gitlab.com/g/sub/r.git", none, Host{GitLab, "gitlab.com", "g/sub/r", "https://gitlab.com/g/sub/r"}},
		{"gitlab.com scp", "git@gitlab.com:g/r.git", none, Host{GitLab, "gitlab.com", "g/r", "https://gitlab.com/g/r"}},
		{"gitlab.com altssh", "ssh://git@altssh.gitlab.com:443/g/r.git", none, Host{GitLab, "gitlab.com", "g/r", "https://gitlab.com/g/r"}},
		{"self-managed gitlab", "ssh://git@gitlab.example.org:2222/g/r.git", none, Host{GitLab, "gitlab.example.org", "g/r", "https://gitlab.example.org/g/r"}},
		{"self-managed gitlab https port", "https://code-gitlab.corp:8443/g/r", none, Host{GitLab, "code-gitlab.corp", "g/r", "https://code-gitlab.corp:8443/g/r"}},
		{"GITLAB_HOST", "git@code.corp:g/r.git", env("GITLAB_HOST", "code.corp"), Host{GitLab, "code.corp", "g/r", "https://code.corp/g/r"}},
		{"GITLAB_HOST as a URL", "git@code.corp:g/r.git", env("GITLAB_HOST", "https://code.corp/"), Host{GitLab, "code.corp", "g/r", "https://code.corp/g/r"}},
		{"gitlab one segment", "https://gitlab.com/r", none, Host{Kind: None, Name: "gitlab.com", Path: "r", WebURL: "https://gitlab.com/r"}},
		{"unknown https", "https://git.example.net/o/r.git", none, Host{Kind: None, Name: "git.example.net", Path: "o/r", WebURL: "https://git.example.net/o/r"}},
		{"unknown http keeps scheme", "http://git.example.net:3000/o/r.git", none, Host{Kind: None, Name: "git.example.net", Path: "o/r", WebURL: "http://git.example.net:3000/o/r"}},
		{"unknown scp", "git@bitbucket.org:o/r.git", none, Host{Kind: None, Name: "bitbucket.org", Path: "o/r", WebURL: "https://bitbucket.org/o/r"}},
		{"scp with a bracketed host and port", "git@[gitlab.example.org:2222]:g/r.git", none, Host{GitLab, "gitlab.example.org", "g/r", "https://gitlab.example.org/g/r"}},
		{"scp with a bracketed host", "[github.com]:o/r.git", none, Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}},
		{"local absolute path", "/srv/git/r.git", none, Host{}},
		{"local relative path", "../r.git", none, Host{}},
		{"local path with a colon after a slash", "./a:b/r.git", none, Host{}},
		{"windows drive", `C:\repos\r.git`, none, Host{}},
		{"file url", "file:///srv/git/github.com/o/r.git", none, Host{}},
		{"empty", "", none, Host{}},
		{"host only", "https://github.com/", none, Host{}},
		{"unknown scheme", "rsync://github.com/o/r", none, Host{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(tt.url, tt.getenv); got != tt.want {
				t.Errorf("Detect(%q) = %#v, want %#v", tt.url, got, tt.want)
			}
		})
	}
}

func TestHostRepoFlag(t *testing.T) {
	tests := []struct {
		h    Host
		want string
	}{
		{Host{GitHub, "github.com", "o/r", "https://github.com/o/r"}, "github.com/o/r"},
		{Host{GitHub, "git.corp.example", "o/r", "https://git.corp.example/o/r"}, "git.corp.example/o/r"},
		{Host{GitLab, "gitlab.com", "g/sub/r", "https://gitlab.com/g/sub/r"}, "https://gitlab.com/g/sub/r"},
		{Host{GitLab, "code.corp", "g/r", "https://code.corp/g/r"}, "https://code.corp/g/r"},
		{Host{}, ""},
	}
	for _, tt := range tests {
		if got := tt.h.RepoFlag(); got != tt.want {
			t.Errorf("%#v.RepoFlag() = %q, want %q", tt.h, got, tt.want)
		}
	}
}

func TestPickURL(t *testing.T) {
	none := func(string) string { return "" }
	tests := []struct {
		urls []string
		want string
	}{
		{[]string{"/srv/mirror.git", "https://github.com/o/r.git"}, "https://github.com/o/r.git"},
		{[]string{"git@github.com:o/r.git", "gh:o/r"}, "git@github.com:o/r.git"},
		{[]string{"/srv/a.git", ""}, "/srv/a.git"},
		{[]string{"/srv/a.git", "/srv/b.git"}, "/srv/a.git"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := PickURL(tt.urls, none); got != tt.want {
			t.Errorf("PickURL(%q) = %q, want %q", tt.urls, got, tt.want)
		}
	}
}
