package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/internal/smallfile"
)

// The record merge driver as git knows it (docs/merging.md): the driver
// "yoimem" in the repository's local config, named for .yoi/**/*.md in
// the top level's .gitattributes.
const (
	MergeDriverName    = "git-yoimem record merge"
	MergeDriverCommand = "git yoimem merge-driver %O %A %B %P"
	mergeDriverSection = "merge.yoimem"
	// maxAttributesBytes bounds the .gitattributes read: far above any
	// real one; a bigger file is named, not read.
	maxAttributesBytes = 4 << 20
)

// MergeDriverChange is one thing registering or unregistering changed.
type MergeDriverChange struct {
	What string // "config merge.yoimem.driver", ".gitattributes"
	Path string // the file changed (absolute) when it is .gitattributes
	// Created: the file did not exist (install); Removed: it was left
	// empty and removed (uninstall).
	Created, Removed bool
}

// AttributesLine is the .gitattributes line for the records of a
// workspace at rel (slash-separated, relative to the top level; "" or ".":
// the top level).
func AttributesLine(rel string) string {
	prefix := ".yoi/"
	if rel != "" && rel != "." {
		// The directory's own glob characters match only themselves.
		var b strings.Builder
		for _, r := range strings.TrimSuffix(rel, "/") {
			if strings.ContainsRune(`*?[\`, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		prefix = b.String() + "/.yoi/"
	}
	pattern := prefix + "**/*.md"
	if strings.ContainsAny(pattern, " \t\"\\") || !isPrintableASCII(pattern) {
		// git reads a pattern that starts with a quote C-style
		// (gitattributes(5)), so white space and quotes stay in it.
		pattern = cQuote(pattern)
	}
	return pattern + " merge=yoimem"
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// cQuote quotes s as git's C-style quoting: \" \\ \t \n and octal
// escapes for the other bytes outside printable ASCII.
func cQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// AddAttribute returns content with line appended, the user's bytes kept:
// a missing final line break is added first, and a file written with
// CRLF gets CRLF. It reports false when line is already there.
func AddAttribute(content []byte, line string) ([]byte, bool) {
	if hasLine(content, line) {
		return content, false
	}
	nl := "\n"
	if bytes.Contains(content, []byte("\r\n")) {
		nl = "\r\n"
	}
	out := append([]byte(nil), content...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	return append(out, line+nl...), true
}

// RemoveAttribute returns content without the lines equal to line (their
// line breaks too), every other byte kept. It reports whether one was
// there.
func RemoveAttribute(content []byte, line string) ([]byte, bool) {
	var out []byte
	found := false
	for rest := content; len(rest) > 0; {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l = rest[:i+1]
		}
		rest = rest[len(l):]
		if string(bytes.TrimRight(l, "\r\n")) == line {
			found = true
			continue
		}
		out = append(out, l...)
	}
	return out, found
}

func hasLine(content []byte, line string) bool {
	for _, l := range bytes.Split(content, []byte("\n")) {
		if string(bytes.TrimRight(l, "\r")) == line {
			return true
		}
	}
	return false
}

// InstallMergeDriver registers the record merge driver for the workspace
// at rel: merge.yoimem.name and .driver in the local config, and the
// attributes line in the top level's .gitattributes. What was already
// there is left as it is; it returns what it changed.
func InstallMergeDriver(ctx context.Context, r Repo, rel string) ([]MergeDriverChange, error) {
	var changed []MergeDriverChange
	for _, kv := range [][2]string{{mergeDriverSection + ".name", MergeDriverName}, {mergeDriverSection + ".driver", MergeDriverCommand}} {
		cur, err := localConfig(ctx, r, kv[0])
		if err != nil {
			return changed, err
		}
		if cur == kv[1] {
			continue
		}
		if _, err := r.Git.Run(ctx, "config", "--local", kv[0], kv[1]); err != nil {
			return changed, fmt.Errorf("set %s: %w", kv[0], err)
		}
		changed = append(changed, MergeDriverChange{What: "config " + kv[0]})
	}
	path := filepath.Join(r.TopLevel, ".gitattributes")
	content, mode, err := readAttributes(path)
	if err != nil {
		return changed, err
	}
	out, ok := AddAttribute(content, AttributesLine(rel))
	if ok {
		if err := atomicfile.Write(path, out, mode); err != nil {
			return changed, fmt.Errorf("write %s: %w", path, err)
		}
		changed = append(changed, MergeDriverChange{What: ".gitattributes", Path: path, Created: content == nil})
	}
	return changed, nil
}

// UninstallMergeDriver takes out exactly what InstallMergeDriver added:
// our two config values (the section too once it holds nothing else) and
// the attributes line (the file too once it is empty).
func UninstallMergeDriver(ctx context.Context, r Repo, rel string) ([]MergeDriverChange, error) {
	var changed []MergeDriverChange
	for _, kv := range [][2]string{{mergeDriverSection + ".name", MergeDriverName}, {mergeDriverSection + ".driver", MergeDriverCommand}} {
		cur, err := localConfig(ctx, r, kv[0])
		if err != nil {
			return changed, err
		}
		if cur != kv[1] {
			continue // not ours, or not there
		}
		if _, err := r.Git.Run(ctx, "config", "--local", "--unset", kv[0]); err != nil {
			return changed, fmt.Errorf("unset %s: %w", kv[0], err)
		}
		changed = append(changed, MergeDriverChange{What: "config " + kv[0]})
	}
	if len(changed) > 0 {
		rest, err := r.Git.Run(ctx, "config", "--local", "--get-regexp", `^merge\.yoimem\.`)
		var ge *Error
		if errors.As(err, &ge) && ge.ExitCode == 1 && len(rest) == 0 {
			_, _ = r.Git.Run(ctx, "config", "--local", "--remove-section", mergeDriverSection) // an empty header left by --unset
		}
	}
	path := filepath.Join(r.TopLevel, ".gitattributes")
	content, mode, err := readAttributes(path)
	if err != nil {
		return changed, err
	}
	out, ok := RemoveAttribute(content, AttributesLine(rel))
	if !ok {
		return changed, nil
	}
	if len(out) == 0 {
		err = os.Remove(path)
	} else {
		err = atomicfile.Write(path, out, mode)
	}
	if err != nil {
		return changed, fmt.Errorf("write %s: %w", path, err)
	}
	return append(changed, MergeDriverChange{What: ".gitattributes", Path: path, Removed: len(out) == 0}), nil
}

// localConfig is a key's value in the local config; "" when unset.
func localConfig(ctx context.Context, r Repo, key string) (string, error) {
	out, err := r.Git.Run(ctx, "config", "--local", "--get", key)
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", key, err)
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// readAttributes reads .gitattributes (nil when missing) and its mode.
func readAttributes(path string) ([]byte, os.FileMode, error) {
	b, err := smallfile.Read(path, maxAttributesBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, 0o644, nil
	case err != nil:
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return b, mode, nil
}
