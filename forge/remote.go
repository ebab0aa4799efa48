package forge

import (
	"net/url"
	"strings"
)

// remote is a remote URL taken apart.
type remote struct {
	scheme string // "https", "http", "ssh" (also for scp-like URLs)
	host   string // lower-case, no port
	port   string // kept for the web URL of http(s) remotes
	path   string // no leading or trailing "/", no ".git"
}

// web is the repository's web page.
func (r remote) web() string {
	if r.scheme == "http" || r.scheme == "https" {
		hp := r.host
		if r.port != "" {
			hp += ":" + r.port
		}
		return r.scheme + "://" + hp + "/" + r.path
	}
	return "https://" + r.host + "/" + r.path
}

// parseRemote takes apart the URL forms git reads for a remote host
// (git-clone(1), "GIT URLS"): scheme://[user@]host[:port]/path for ssh,
// git, http and https, and the scp-like [user@]host:path. Local paths,
// file:// URLs and other schemes are not a forge: ok is false.
func parseRemote(s string) (remote, bool) {
	s = strings.TrimSpace(s)
	var r remote
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return remote{}, false
		}
		switch u.Scheme {
		case "http", "https":
			r.scheme, r.port = u.Scheme, u.Port()
		case "ssh", "git+ssh", "ssh+git", "git":
			r.scheme = "ssh"
		default:
			return remote{}, false
		}
		r.host, r.path = u.Hostname(), u.Path
	} else {
		host, path, ok := scpLike(s)
		if !ok {
			return remote{}, false
		}
		r.scheme, r.host, r.path = "ssh", host, path
	}
	r.host = strings.ToLower(r.host)
	r.path = cleanPath(r.path)
	if r.host == "" || r.path == "" {
		return remote{}, false
	}
	return r, true
}

// scpLike splits [user@]host:path (also [user@][host:port]:path). As git
// does, a colon after a slash is a local path ("./a:b"), and so is a
// one-letter host (a DOS drive, "C:").
func scpLike(s string) (host, path string, ok bool) {
	colon := strings.IndexByte(s, ':')
	if end := strings.Index(s, "]:"); end >= 0 && strings.Contains(s[:end], "[") {
		colon = end + 1 // [host:port]:path or user@[host]:path
	}
	if colon <= 0 || strings.Contains(s[:colon], "/") {
		return "", "", false
	}
	host, path = s[:colon], s[colon+1:]
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if b, ok := strings.CutPrefix(host, "["); ok {
		host = strings.TrimSuffix(b, "]")
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h // the ssh port
		}
	}
	if len(host) <= 1 {
		return "", "", false
	}
	return host, path, true
}

// cleanPath drops the slashes around the path and one ".git" suffix.
func cleanPath(p string) string {
	p = strings.Trim(p, "/")
	p = strings.TrimSuffix(p, ".git")
	return strings.Trim(p, "/")
}
