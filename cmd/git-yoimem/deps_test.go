package main

import (
	"testing"

	"github.com/yoimem/git-yoimem/internal/depstest"
)

// TestNoModelSDKs: git-yoimem does not link the model SDKs (nor
// llm/apis, which wraps them): they make the binary four times larger and
// cost every hook and agent turn start-up time; model calls go through
// the git-yoimem-llm helper (llm's bridge).
func TestNoModelSDKs(t *testing.T) {
	depstest.NoModelSDKs(t, ".", "git-yoimem", "model calls go through the git-yoimem-llm helper")
}
