package agent

import (
	"path"
	"strings"
)

// targets are the paths a command writes (whole: a path that is .yoi
// itself counts, for commands that remove, move or re-permission a
// tree), or nested, the memory path a command it runs writes.
func (g Guard) targets(name string, args []string, cwd string, piped []string, depth int) (paths []string, whole bool, nested string) {
	switch name {
	case "tee":
		return operands(args, ""), false, ""
	case "cp", "ln":
		return withSourceNames(args, "St"), false, ""
	case "rsync":
		return withSourceNames(args, "e"), false, ""
	case "install":
		if hasFlag(args, 'd', "mgoSt") {
			return operands(args, "mgoSt"), false, ""
		}
		return dest(args, "mgoSt"), false, ""
	case "mv":
		return append(operands(args, "St"), dest(args, "St")...), true, ""
	case "rm", "rmdir", "unlink", "shred":
		return operands(args, "nsu"), true, ""
	case "touch":
		return operands(args, "dtr"), false, ""
	case "truncate":
		return operands(args, "sr"), false, ""
	case "mkdir":
		return operands(args, "m"), false, ""
	case "chmod", "chown", "chgrp":
		ops := operands(args, "")
		if len(ops) > 0 && !hasLong(args, "--reference") {
			ops = ops[1:] // the mode or owner
		}
		return ops, true, ""
	case "sed":
		return sedInPlace(args), false, ""
	case "perl":
		return perlInPlace(args), false, ""
	case "dd":
		for _, a := range args {
			if p, ok := strings.CutPrefix(a, "of="); ok {
				paths = append(paths, p)
			}
		}
		return paths, false, ""
	case "git":
		return gitWrites(args), true, ""
	case "find":
		return nil, false, g.find(args, cwd, depth)
	case "xargs":
		sub := afterOptions(args, "aEeIiLlnPsd")
		return nil, false, g.command(append(sub, piped...), cwd, nil, depth+1)
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "busybox":
		if script, ok := shellScript(args); ok {
			return nil, false, g.shell(script, cwd, depth+1)
		}
	case "eval":
		return nil, false, g.shell(strings.Join(args, " "), cwd, depth+1)
	case "apply_patch", "applypatch": // Codex's, the patch an argument
		return nil, false, g.patchText(strings.Join(args, "\n"), cwd)
	case "awk", "gawk":
		return awkInPlace(args), false, ""
	case "curl", "wget":
		return downloadTargets(name, args), false, ""
	case "tar", "unzip":
		return extractTargets(name, args), false, ""
	case "patch":
		return patchTargets(args), false, ""
	}
	if code, ok := inlineCode(name, args); ok {
		return g.codeWrites(code, cwd), false, ""
	}
	return nil, false, ""
}

// operands are the arguments that are not options; withArg are the short
// options that take a value.
func operands(args []string, withArg string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i+1:]...)
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(withArg, a[1]) >= 0:
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			out = append(out, a)
		}
	}
	return out
}

// afterOptions are the words after a command's leading options: the
// command xargs runs.
func afterOptions(args []string, withArg string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(withArg, a[1]) >= 0:
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			return args[i:]
		}
	}
	return nil
}

// dest is where cp, mv, ln, install and rsync write: -t DIR, or the last
// operand when there are two or more.
func dest(args []string, withArg string) []string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--target-directory="); ok {
			return []string{v}
		}
		if (a == "-t" || a == "--target-directory") && i+1 < len(args) {
			return []string{args[i+1]}
		}
		if strings.HasPrefix(a, "-t") && len(a) > 2 && !strings.HasPrefix(a, "--") {
			return []string{a[2:]}
		}
	}
	ops := operands(args, withArg)
	if len(ops) < 2 {
		return nil
	}
	return ops[len(ops)-1:]
}

// withSourceNames is dest and, were it a directory, the paths the
// sources get in it: cp -r memory .yoi/ writes .yoi/memory.
func withSourceNames(args []string, withArg string) []string {
	d := dest(args, withArg)
	if len(d) == 0 {
		return nil
	}
	ops := operands(args, withArg)
	if len(ops) > 0 && ops[len(ops)-1] == d[0] {
		ops = ops[:len(ops)-1]
	}
	out := d
	for _, src := range ops {
		if base := path.Base(strings.TrimRight(src, "/")); base != "." && base != "/" {
			out = append(out, strings.TrimRight(d[0], "/")+"/"+base)
		}
	}
	return out
}

// hasFlag tells whether a short flag is given, alone or in a group.
func hasFlag(args []string, flag byte, withArg string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			if a[j] == flag {
				return true
			}
			if strings.IndexByte(withArg, a[j]) >= 0 {
				if j == len(a)-1 {
					i++
				}
				break
			}
		}
	}
	return false
}

func hasLong(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// sedInPlace are the files sed edits in place (-i, -i.bak, -ni,
// --in-place), or nil when it does not: the operands but the script.
func sedInPlace(args []string) []string {
	inPlace, script := false, false
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case a == "--in-place" || strings.HasPrefix(a, "--in-place="):
			inPlace = true
		case a == "--expression" || a == "--file":
			script = true
			i++
		case strings.HasPrefix(a, "--expression=") || strings.HasPrefix(a, "--file="):
			script = true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				c := a[j]
				if c == 'i' {
					inPlace = true // the rest is the backup suffix
					break
				}
				if c == 'e' || c == 'f' || c == 'l' {
					script = script || c != 'l'
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			ops = append(ops, a)
		}
	}
	if !inPlace {
		return nil
	}
	if !script && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops
}

// perlInPlace are the files perl -i edits, or nil.
func perlInPlace(args []string) []string {
	inPlace, code := false, false
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				if a[j] == 'i' {
					inPlace = true
					break
				}
				if a[j] == 'e' || a[j] == 'E' {
					code = true
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			ops = append(ops, a)
		}
	}
	if !inPlace {
		return nil
	}
	if !code && len(ops) > 0 {
		ops = ops[1:] // the script file
	}
	return ops
}

// gitWrites are the paths git rm and git mv change, after git's own
// options (-C dir moves where they are relative to).
func gitWrites(args []string) []string {
	dir := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if (args[0] == "-C" || args[0] == "-c") && len(args) > 1 {
			if args[0] == "-C" {
				dir = within(dir, args[1])
			}
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return nil
	}
	var ops []string
	switch args[0] {
	case "rm", "mv":
		ops = operands(args[1:], "")
	case "checkout": // checkout [<tree>] [--] <paths>: a branch name is no memory path
		ops = operands(args[1:], "bB")
	case "restore":
		if (hasFlag(args[1:], 'S', "s") || hasLong(args[1:], "--staged")) &&
			!hasFlag(args[1:], 'W', "s") && !hasLong(args[1:], "--worktree") {
			return nil // the index only
		}
		ops = operands(args[1:], "s")
	case "clean":
		ops = operands(args[1:], "e")
	}
	var out []string
	for _, op := range ops {
		out = append(out, within(dir, op))
	}
	return out
}

// shellScript is the script of sh -c 'script'.
func shellScript(args []string) (string, bool) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			return "", false
		}
		if strings.ContainsRune(a[1:], 'c') && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// find writes when it deletes (-delete) or runs a writing command
// (-exec, -execdir, -ok, -okdir) on what it finds below its start paths.
func (g Guard) find(args []string, cwd string, depth int) string {
	var starts []string
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	starts = append(starts, pathTests(args[i:])...)
	for ; i < len(args); i++ {
		switch args[i] {
		case "-delete":
			for _, s := range starts {
				if w, ok := g.memoryPath(s, cwd, true); ok {
					return w
				}
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			var sub []string
			for i++; i < len(args) && args[i] != ";" && args[i] != "+"; i++ {
				sub = append(sub, args[i])
			}
			for _, s := range starts {
				if w := g.command(replaceAll(sub, "{}", s), cwd, nil, depth+1); w != "" {
					return w
				}
			}
		}
	}
	return ""
}

// pathTests are the patterns of find's -path and -wholename tests: a
// pattern that names memory selects files there, whatever the start;
// one negated (! -path, -not -path) or pruned (-path P -prune) leaves
// them out instead.
func pathTests(args []string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "-path", "-wholename", "-ipath", "-iwholename":
			negated := i > 0 && (args[i-1] == "!" || args[i-1] == "-not")
			pruned := i+2 < len(args) && args[i+2] == "-prune"
			if !negated && !pruned {
				out = append(out, args[i+1])
			}
		}
	}
	return out
}

func replaceAll(words []string, old, with string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.ReplaceAll(w, old, with)
	}
	return out
}
