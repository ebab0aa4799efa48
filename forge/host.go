package forge

import (
	"net/url"
	"strings"
)

// Kind is the forge that serves a remote.
type Kind string

const (
	None   Kind = ""       // unknown: no tool; the request is opened by hand
	GitHub Kind = "github" // gh
	GitLab Kind = "gitlab" // glab
)

// Host is a remote as the forge's tool names it.
type Host struct {
	Kind Kind
	// Name is the host name, lower-case, without a port: "github.com",
	// "gitlab.example.org" (what gh and glab take as --hostname).
	Name string
	// Path is the repository's path on the host without ".git":
	// "OWNER/REPO", or "GROUP/SUBGROUP/REPO" on GitLab.
	Path string
	// WebURL is the repository's web page: the remote's own URL for http
	// and https remotes (port kept), https://Name/Path for ssh ones; empty
	// when the remote is a local path.
	WebURL string
}

// CLI is the tool that serves the host: "gh", "glab" or "".
func (h Host) CLI() string {
	switch h.Kind {
	case GitHub:
		return "gh"
	case GitLab:
		return "glab"
	}
	return ""
}

// RepoFlag is the value of the tool's --repo flag, so that it does not
// guess the repository from another remote. It always names the host:
// both tools fill a bare OWNER/REPO with their default host, which
// GH_HOST or GITLAB_HOST may set to another one. gh takes HOST/OWNER/REPO
// (cli/cli internal/ghrepo); glab takes the repository's URL
// (gitlab-org/cli internal/glrepo: its HOST/… form reads a dotted first
// part as a group unless that host is logged in).
func (h Host) RepoFlag() string {
	switch h.Kind {
	case GitHub:
		return h.Name + "/" + h.Path
	case GitLab:
		return h.WebURL
	}
	return ""
}

// Detect tells which forge serves remoteURL (a remote's URL as git
// config holds it). getenv reads the environment (os.Getenv): GH_HOST
// names a GitHub Enterprise host, GITLAB_HOST (or glab's older GITLAB_URI
// and GL_HOST) a GitLab one. Besides those: github.com and *.ghe.com are
// GitHub, gitlab.com and hosts with "gitlab" in their name are GitLab.
// Local paths and file:// URLs are Host{}; other hosts are Kind None with
// the name, path and web URL filled in when the URL gives them.
func Detect(remoteURL string, getenv func(string) string) Host {
	r, ok := parseRemote(remoteURL)
	if !ok {
		return Host{}
	}
	h := Host{Name: r.host, Path: r.path, WebURL: r.web()}
	switch canonical := aliasHost(r.host); {
	case r.host == envHost(getenv, "GH_HOST"):
		h.Kind = GitHub
	case envHostIs(getenv, r.host, "GITLAB_HOST", "GITLAB_URI", "GL_HOST"):
		h.Kind = GitLab
	case canonical == "github.com" || strings.HasSuffix(r.host, ".ghe.com"):
		h.Kind, h.Name = GitHub, canonical
	case canonical == "gitlab.com" || strings.Contains(r.host, "gitlab"):
		h.Kind, h.Name = GitLab, canonical
	}
	if h.Name != r.host {
		h.WebURL = "https://" + h.Name + "/" + h.Path
	}
	if !validPath(h.Kind, h.Path) {
		h.Kind = None
	}
	return h
}

// aliasHost maps the hosts that serve ssh on port 443 (and GitHub's www
// name) to the forge's own name.
func aliasHost(host string) string {
	switch host {
	case "ssh.github.com", "www.github.com":
		return "github.com"
	case "altssh.gitlab.com":
		return "gitlab.com"
	}
	return host
}

// validPath: a GitHub repository is OWNER/REPO; a GitLab one is at least
// GROUP/REPO, with subgroups between.
func validPath(k Kind, p string) bool {
	n := strings.Count(p, "/") + 1
	switch k {
	case GitHub:
		return n == 2
	case GitLab:
		return n >= 2
	}
	return true
}

// envHost is the host named by an environment variable, which may hold a
// bare host name or a URL ("https://gitlab.example.org/").
func envHost(getenv func(string) string, key string) string {
	if getenv == nil {
		return ""
	}
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return ""
	}
	if strings.Contains(v, "://") {
		if u, err := url.Parse(v); err == nil {
			return strings.ToLower(u.Hostname())
		}
		return ""
	}
	v, _, _ = strings.Cut(v, "/")
	if h, _, ok := strings.Cut(v, ":"); ok {
		v = h
	}
	return strings.ToLower(v)
}

func envHostIs(getenv func(string) string, host string, keys ...string) bool {
	for _, k := range keys {
		if e := envHost(getenv, k); e != "" {
			return e == host
		}
	}
	return false
}

// PickURL chooses, of a remote's URLs (as git fetches from it, then as
// its configuration names it, before url.<base>.insteadOf rewrote it),
// the first one a tool serves, else the first: a forge's URL rewritten
// to a mirror or a local path still names whose repository it is.
func PickURL(urls []string, getenv func(string) string) string {
	for _, u := range urls {
		if u != "" && Detect(u, getenv).Kind != None {
			return u
		}
	}
	if len(urls) == 0 {
		return ""
	}
	return urls[0]
}
