package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// MayHaveGitSettings reports whether git's configuration could hold a
// yoimem.* key, by looking at the files and variables git reads, without
// running git. It answers true (run git) whenever it cannot be sure: an
// include, a deprecated GIT_CONFIG, an unreadable file. getenv reads the
// environment; gitDir and commonDir are the repository's.
func MayHaveGitSettings(gitDir, commonDir string, getenv func(string) string) bool {
	if getenv("GIT_CONFIG") != "" || mentions(getenv("GIT_CONFIG_PARAMETERS")) {
		return true
	}
	if n, _ := strconv.Atoi(getenv("GIT_CONFIG_COUNT")); n > 0 {
		for i := 0; i < n; i++ {
			if mentions(getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))) {
				return true
			}
		}
	}
	files := GitFiles(gitDir, commonDir, getenv)
	for _, f := range files {
		if f == "/dev/null" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return true
		}
		low := bytes.ToLower(b)
		if hasYoimemSection(low) || bytes.Contains(low, []byte("[include")) {
			return true
		}
	}
	return false
}

// hasYoimemSection reports whether lowercased config text has a line that
// opens a yoimem section ([yoimem], [yoimem "sub"], [yoimem.sub]): only
// there can a yoimem.* key be set. The word elsewhere (the merge driver's
// [merge "yoimem"] section, a value) sets none.
func hasYoimemSection(low []byte) bool {
	for _, line := range bytes.Split(low, []byte("\n")) {
		l := bytes.TrimLeft(line, " \t")
		if !bytes.HasPrefix(l, []byte("[")) {
			continue
		}
		l = bytes.TrimLeft(l[1:], " \t")
		if rest, ok := bytes.CutPrefix(l, []byte("yoimem")); ok && len(rest) > 0 && bytes.IndexByte([]byte("] \t\".\r"), rest[0]) >= 0 {
			return true
		}
	}
	return false
}

// mentions reports whether command-line configuration (git -c, as
// GIT_CONFIG_PARAMETERS or GIT_CONFIG_KEY_n) may set a yoimem key: naming
// one, or including a file (include.path and includeIf.*.path are honored
// there too).
func mentions(s string) bool {
	low := strings.ToLower(s)
	return strings.Contains(low, "yoimem") || strings.Contains(low, "include")
}

// envBool is git's reading of a boolean variable (git_env_bool): true,
// yes, on or a non-zero number; unset, empty, false, no, off and 0 are
// false. Anything else git would refuse counts as false: the probe then
// reads one more file, never one fewer.
func envBool(s string) bool {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true
	}
	n, err := strconv.ParseInt(s, 0, 64)
	return err == nil && n != 0
}

// GitFiles lists the configuration files git reads in a repository, in
// its order: the system file (unless GIT_CONFIG_NOSYSTEM), the global
// ones (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config and
// ~/.gitconfig), the repository's config, and last the worktree's
// config.worktree, which git reads only under extensions.worktreeConfig.
// Includes and command-line settings (GIT_CONFIG_PARAMETERS) are the
// caller's to look at.
func GitFiles(gitDir, commonDir string, getenv func(string) string) []string {
	var files []string
	if !envBool(getenv("GIT_CONFIG_NOSYSTEM")) {
		sys := getenv("GIT_CONFIG_SYSTEM")
		if sys == "" {
			sys = "/etc/gitconfig"
		}
		files = append(files, sys)
	}
	if global := getenv("GIT_CONFIG_GLOBAL"); global != "" {
		files = append(files, global)
	} else {
		home := getenv("HOME")
		xdg := getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	return append(files, filepath.Join(commonDir, "config"), filepath.Join(gitDir, "config.worktree"))
}
