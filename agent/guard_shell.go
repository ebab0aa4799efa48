package agent

import (
	"path"
	"strings"
)

// maxDepth bounds how deep bash -c, eval and substitutions are followed.
const maxDepth = 6

// shell returns the first memory path the command line writes, or "".
func (g Guard) shell(line, cwd string, depth int) string {
	if depth > maxDepth {
		return ""
	}
	sc := parseShell(line)
	for _, sub := range sc.subs {
		if w := g.shell(sub, cwd, depth+1); w != "" {
			return w
		}
	}
	for i, c := range sc.cmds {
		for _, t := range c.writes {
			if w, ok := g.memoryPath(t, cwd, false); ok {
				return w
			}
		}
		words := stripPrefix(c.words)
		if len(words) >= 2 && (words[0] == "cd" || words[0] == "pushd") && words[1] != "-" {
			cwd = within(cwd, words[1])
			continue
		}
		if len(words) > 0 && (path.Base(words[0]) == "apply_patch" || path.Base(words[0]) == "applypatch") {
			if w := g.patchText(line, cwd); w != "" {
				return w // the patch is an argument or a here-document (Codex's shell)
			}
			continue
		}
		if w := g.command(words, cwd, g.pipeMentions(sc.cmds, i, cwd), depth); w != "" {
			return w
		}
	}
	return ""
}

func within(cwd, p string) string {
	if strings.HasPrefix(p, "/") || cwd == "" {
		return p
	}
	return cwd + "/" + p
}

// keywords start or end compound commands; the command follows them.
var keywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"while": true, "until": true, "!": true, "{": true, "}": true, "esac": true,
}

// stripPrefix drops keywords and variable assignments before a command.
func stripPrefix(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case keywords[w]:
		case w == "for" || w == "select" || w == "case":
			return nil // for x in …: the words are not a command
		case isAssignment(w):
		default:
			return words
		}
		words = words[1:]
	}
	return nil
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// pipeMentions are the memory paths the other commands of command i's
// pipeline name, what xargs may be handed.
func (g Guard) pipeMentions(cmds []simple, i int, cwd string) []string {
	var out []string
	for j, c := range cmds {
		if j == i || c.pipe != cmds[i].pipe {
			continue
		}
		for _, w := range c.words {
			if _, ok := g.memoryPath(w, cwd, true); ok {
				out = append(out, w)
			}
		}
	}
	return out
}

// command returns the memory path one simple command writes, or "".
func (g Guard) command(words []string, cwd string, piped []string, depth int) string {
	words = unwrap(words)
	if len(words) == 0 {
		return ""
	}
	name, args := path.Base(words[0]), words[1:]
	targets, whole, nested := g.targets(name, args, cwd, piped, depth)
	if nested != "" {
		return nested
	}
	for _, t := range targets {
		if w, ok := g.memoryPath(t, cwd, whole); ok {
			return w
		}
	}
	return ""
}

// wrappers run the command that follows their options.
var wrappers = map[string]string{ // name: its options that take a value
	"sudo": "ugCDhprtUT", "doas": "uC", "env": "uCS", "command": "", "builtin": "", "exec": "a",
	"nohup": "", "nice": "n", "time": "f", "timeout": "sk", "stdbuf": "ioe", "ionice": "cnp",
}

// unwrap drops wrappers (sudo, env, nohup, …) before the real command.
func unwrap(words []string) []string {
	for len(words) > 0 {
		withArg, ok := wrappers[path.Base(words[0])]
		if !ok {
			return words
		}
		name := path.Base(words[0])
		words = words[1:]
		for len(words) > 0 {
			w := words[0]
			switch {
			case w == "--":
				words = words[1:]
			case strings.HasPrefix(w, "-") && len(w) > 1:
				words = words[1:]
				if len(w) == 2 && strings.IndexByte(withArg, w[1]) >= 0 && len(words) > 0 {
					words = words[1:]
				}
				continue
			case name == "env" && isAssignment(w):
				words = words[1:]
				continue
			case name == "timeout" && len(w) > 0 && w[0] >= '0' && w[0] <= '9':
				words = words[1:]
			}
			break
		}
	}
	return words
}
