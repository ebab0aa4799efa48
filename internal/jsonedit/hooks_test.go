package jsonedit

import (
	"strings"
	"testing"
)

var demo = Hooks{
	Events:  []HookEvent{{Name: "Start", Arg: "start"}, {Name: "Tool", Arg: "tool", Matcher: "Bash"}},
	Command: func(arg string) string { return "yoimem hook demo " + arg },
	Ours:    func(cmd, arg string) bool { return cmd == "yoimem hook demo "+arg },
}

func TestHooks(t *testing.T) {
	for _, old := range []string{"", "{}", "{\n  \"x\": 1\n}\n", `{"hooks": {"Tool": [{"hooks": [{"type": "command", "command": "mine"}]}]}}`} {
		merged, err := demo.Merge([]byte(old))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(merged), `"matcher": "Bash"`) || strings.Count(string(merged), "yoimem hook demo") != 2 {
			t.Errorf("%q merged:\n%s", old, merged)
		}
		if again, _ := demo.Merge(merged); string(again) != string(merged) {
			t.Errorf("%q: merging twice differs", old)
		}
		back, err := demo.Unmerge(merged)
		want := old
		if want == "" {
			want = "{}\n"
		}
		if err != nil || string(back) != want {
			t.Errorf("Unmerge(Merge(%q)) = %q, %v", old, back, err)
		}
	}
	for text, want := range map[string]bool{
		`{"hooks": [{"type": "command", "command": "yoimem hook demo start"}]}`:                 true,
		`{"matcher": "x", "hooks": [{"type": "command", "command": "yoimem hook demo start"}]}`: true,
		`{"hooks": [{"type": "command", "command": "yoimem hook demo tool"}]}`:                  false,
		`{"hooks": [{"type": "command", "command": "yoimem hook demo start", "timeout": 5}]}`:   false,
		`{"once": true, "hooks": [{"type": "command", "command": "yoimem hook demo start"}]}`:   false,
		`{"hooks": []}`: false,
		`[]`:            false,
	} {
		if got := demo.IsOurGroup([]byte(text), "start"); got != want {
			t.Errorf("IsOurGroup(%s) = %v", text, got)
		}
	}
}
