// Package depstest is the no-model-SDK check the hot paths' tests share:
// git-yoimem (cmd/git-yoimem) and the agent integrations (agent/) run in
// front of every commit, prompt and tool call, so they must not link the
// model SDKs, nor llm/apis, which wraps them; model calls go through the
// git-yoimem-llm helper.
package depstest

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const apis = "github.com/yoimem/git-yoimem/llm/apis"

// IsModelSDK tells whether pkg is a model SDK package or llm/apis (or a
// package below it).
func IsModelSDK(pkg string) bool {
	return strings.HasPrefix(pkg, "github.com/anthropics/") || strings.HasPrefix(pkg, "github.com/openai/") ||
		pkg == apis || strings.HasPrefix(pkg, apis+"/")
}

// ModelSDKs lists the model SDK packages that the packages matching
// pattern (a go list pattern, relative to the current directory when it
// starts with ".") link, directly or not.
func ModelSDKs(pattern string) ([]string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-deps", "--", pattern).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("go list -deps %s: %w\n%s", pattern, err, ee.Stderr)
		}
		return nil, fmt.Errorf("go list -deps %s: %w", pattern, err)
	}
	var found []string
	for _, pkg := range strings.Fields(string(out)) {
		if IsModelSDK(pkg) {
			found = append(found, pkg)
		}
	}
	return found, nil
}

// NoModelSDKs fails t for each model SDK package that pattern links; what
// names the packages in the message, why says what links them instead.
func NoModelSDKs(t testing.TB, pattern, what, why string) {
	t.Helper()
	found, err := ModelSDKs(pattern)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range found {
		t.Errorf("%s links %s; %s", what, pkg, why)
	}
}
