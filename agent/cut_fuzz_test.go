package agent

import "testing"

// FuzzCutPreTool: any prefix of any input is read without a panic, and a
// cut event is a PreTool event or nothing.
func FuzzCutPreTool(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a","content":"xx`))
	f.Add([]byte(`{"tool_input":{"a":[1,{"b":"c"}],"file_path":"x"},"hook_event_name":"PreToolUse"`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ev := CutPreTool(b, map[string]Kind{"PreToolUse": PreTool})
		if ev.Kind != "" && (ev.Kind != PreTool || !ev.Cut) {
			t.Fatalf("cut event %+v", ev)
		}
		GuardTool(ev)
	})
}
