package agent

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestNoModelSDKs: the agent integrations run in front of every prompt
// and tool call, so they must start fast: neither agent/ nor a package
// below it links the model SDKs (or llm/apis, which wraps them).
func TestNoModelSDKs(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/anthropics/") || strings.HasPrefix(pkg, "github.com/openai/") ||
			pkg == "github.com/yoimem/git-yoimem/llm/apis" {
			t.Errorf("agent/ links %s; the hooks must not load the model SDKs", pkg)
		}
	}
}
