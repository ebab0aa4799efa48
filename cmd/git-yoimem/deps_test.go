package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestNoModelSDKs: git-yoimem does not link the model SDKs (nor
// llm/apis, which wraps them): they make the binary four times larger and
// cost every hook and agent turn start-up time; model calls go through
// the git-yoimem-llm helper (llm's bridge).
func TestNoModelSDKs(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/anthropics/") || strings.HasPrefix(pkg, "github.com/openai/") ||
			pkg == "github.com/yoimem/git-yoimem/llm/apis" {
			t.Errorf("git-yoimem links %s; model calls go through the git-yoimem-llm helper", pkg)
		}
	}
}
