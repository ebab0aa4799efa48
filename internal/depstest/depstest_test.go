package depstest

import (
	"slices"
	"testing"
)

// TestFindsALinkedSDK: the check sees an SDK where one is linked (llm/apis
// wraps them) and through a package that imports it, and names llm/apis
// itself; a package without them has none.
func TestFindsALinkedSDK(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    bool
	}{
		{"github.com/yoimem/git-yoimem/llm/apis", true},
		{"github.com/yoimem/git-yoimem/cmd/git-yoimem-llm", true},
		{"github.com/yoimem/git-yoimem/record", false},
	} {
		got, err := ModelSDKs(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) > 0) != tc.want {
			t.Errorf("ModelSDKs(%s) = %v; want some: %v", tc.pattern, got, tc.want)
		}
	}
	got, _ := ModelSDKs("github.com/yoimem/git-yoimem/cmd/git-yoimem-llm")
	if !slices.Contains(got, "github.com/yoimem/git-yoimem/llm/apis") {
		t.Errorf("the helper's deps %v do not name llm/apis", got)
	}
}

func TestIsModelSDK(t *testing.T) {
	for pkg, want := range map[string]bool{
		"github.com/anthropics/anthropic-sdk-go":         true,
		"github.com/openai/openai-go/v3/option":          true,
		"github.com/yoimem/git-yoimem/llm/apis":          true,
		"github.com/yoimem/git-yoimem/llm":               false,
		"github.com/yoimem/git-yoimem/llm/apis/internal": true,
		"github.com/yoimem/git-yoimem/llm/apisx":         false,
		"github.com/anthropicsx/other":                   false,
	} {
		if got := IsModelSDK(pkg); got != want {
			t.Errorf("IsModelSDK(%s) = %v; want %v", pkg, got, want)
		}
	}
}
