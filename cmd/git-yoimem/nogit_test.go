package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gitCommands are git subcommands and plumbing that a call would name if
// it ran git itself.
var gitCommands = map[string]bool{
	"add": true, "cat-file": true, "check-ref-format": true, "checkout": true, "commit": true, "commit-tree": true,
	"config": true, "diff": true, "diff-index": true, "diff-tree": true, "for-each-ref": true, "hash-object": true,
	"log": true, "ls-files": true, "ls-tree": true, "merge": true, "merge-base": true, "merge-tree": true,
	"mktree": true, "notes": true, "read-tree": true, "reset": true, "rev-list": true, "rev-parse": true,
	"rm": true, "show": true, "show-ref": true, "stash": true, "status": true, "switch": true,
	"symbolic-ref": true, "update-index": true, "update-ref": true, "worktree": true, "write-tree": true,
	"--no-optional-locks": true,
}

// TestNoGitInTheCommand: the command parses flags, wires and prints;
// every git command it needs is a named function in gitstore (or a
// library above it). No file of it (tests apart) imports os/exec, calls
// a gitstore.Git's Run, RunInput or Stream, or passes a git subcommand's
// name to a call.
func TestNoGitInTheCommand(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range gitCalls(t, fset, name, src) {
			t.Error(p)
		}
	}
}

// gitCalls lists where the Go source src runs git itself.
func gitCalls(t *testing.T, fset *token.FileSet, name string, src []byte) []string {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, imp := range f.Imports {
		if imp.Path.Value == `"os/exec"` {
			found = append(found, fset.Position(imp.Pos()).String()+": imports os/exec")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Run" || sel.Sel.Name == "RunInput" || sel.Sel.Name == "Stream") {
			if x, ok := sel.X.(*ast.SelectorExpr); ok && x.Sel.Name == "Git" {
				found = append(found, fset.Position(call.Pos()).String()+": runs git through Git."+sel.Sel.Name)
			}
		}
		if !runsSomething(call.Fun) {
			return true
		}
		for _, a := range call.Args {
			if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if v, err := strconv.Unquote(lit.Value); err == nil && gitCommands[v] {
					found = append(found, fset.Position(lit.Pos()).String()+": names git "+v+" in a call")
				}
			}
		}
		return true
	})
	return found
}

// runsSomething tells whether fun's name says it runs a program (exec's
// Command, a Run or Output method, a helper named after git): the calls
// whose string arguments are checked, since "commit" or "config" are also
// plain words.
func runsSomething(fun ast.Expr) bool {
	var name string
	switch f := fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	name = strings.ToLower(name)
	for _, w := range []string{"git", "run", "command", "exec", "output"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// TestGitCallsSeen: the check finds each way of running git.
func TestGitCallsSeen(t *testing.T) {
	for src, want := range map[string]int{
		"package main\nimport \"os/exec\"\nfunc f() { exec.Command(\"git\", \"rev-parse\", \"HEAD\") }\n": 2,
		"package main\nfunc f() { w.Repo.Git.Run(ctx, \"status\", \"--porcelain\") }\n":                   2,
		"package main\nfunc f() { r.Git.Stream(ctx, nil, read, x) }\n":                                    1,
		"package main\nfunc f() { usageError(\"merge takes no arguments\") }\n":                           0,
		"package main\nvar c = cli.Command{Name: \"merge\"}\n":                                            0,
	} {
		if got := gitCalls(t, token.NewFileSet(), "x.go", []byte(src)); len(got) != want {
			t.Errorf("%d found in %q; want %d: %q", len(got), src, want, got)
		}
	}
}
