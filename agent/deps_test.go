package agent

import (
	"testing"

	"github.com/yoimem/git-yoimem/internal/depstest"
)

// TestNoModelSDKs: the agent integrations run in front of every prompt
// and tool call, so they must start fast: neither agent/ nor a package
// below it links the model SDKs (or llm/apis, which wraps them).
func TestNoModelSDKs(t *testing.T) {
	depstest.NoModelSDKs(t, "./...", "agent/", "the hooks must not load the model SDKs")
}
