package memory

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestExpandSlash: a prompt that begins with /slug naming a knowledge
// record invokes it; any other /word is the agent CLI's and is left alone.
func TestExpandSlash(t *testing.T) {
	files := map[string][]byte{
		"knowledge/deploy-steps.md": []byte(knowledge("howto", "d", false, "Tag, push.\n")),
		"knowledge/retry-policy.md": []byte(knowledge("rule", "d", false, "Retry twice.\n")),
		"knowledge/secret-sauce.md": []byte(strings.Replace(knowledge("rule", "d", false, "hidden\n"), "user_invocable: true", "user_invocable: false", 1)),
		"knowledge/broken.md":       []byte("---\nkind: [\n---\n"),
	}
	tests := []struct {
		name, in                   string
		slash                      string // Expansion.Slash
		expanded, refused, unknown string // comma-joined
	}{
		{name: "command alone", in: "/deploy-steps", slash: "deploy-steps", expanded: "deploy-steps"},
		{name: "with arguments", in: "/deploy-steps to staging\n", slash: "deploy-steps", expanded: "deploy-steps"},
		{name: "after blank space", in: " \t\n/deploy-steps now", slash: "deploy-steps", expanded: "deploy-steps"},
		{name: "then #slug", in: "/deploy-steps with #retry-policy", slash: "deploy-steps", expanded: "deploy-steps,retry-policy"},
		{name: "same record both ways, once", in: "/deploy-steps as #deploy-steps says", slash: "deploy-steps", expanded: "deploy-steps"},
		{name: "the agent's own command", in: "/compact keep it short"},
		{name: "an unknown command before #slug", in: "/review #retry-policy", expanded: "retry-policy"},
		{name: "not at the start", in: "run /deploy-steps"},
		{name: "a path", in: "/deploy-steps/notes.md is long"},
		{name: "not a slug", in: "/Deploy-Steps"},
		{name: "punctuation after", in: "/deploy-steps, please"},
		{name: "a bare slash", in: "/ deploy-steps"},
		{name: "two slashes", in: "//deploy-steps"},
		{name: "not user-invocable", in: "/secret-sauce", slash: "secret-sauce", refused: "secret-sauce"},
		{name: "a damaged record", in: "/broken", slash: "broken", unknown: "broken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := Expand(record.MapSnapshot(files), []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got := []string{ex.Slash, strings.Join(ex.Expanded, ","), strings.Join(ex.Refused, ","), strings.Join(ex.Unknown, ",")}
			want := []string{tt.slash, tt.expanded, tt.refused, tt.unknown}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("slash|expanded|refused|unknown = %q, want %q", got, want)
			}
			if tt.expanded == "" && ex.Text([]byte(tt.in)) != tt.in {
				t.Fatalf("text changed: %q", ex.Text([]byte(tt.in)))
			}
		})
	}
}
