package agent

import (
	"strings"
	"testing"
)

func patch(body string) Event {
	return toolEvent("apply_patch", "/home/ann/shop", map[string]any{"command": "*** Begin Patch\n" + body + "*** End Patch\n"})
}

// TestGuardApplyPatch: Codex's file tool, apply_patch, is denied when its
// patch adds, updates, deletes or moves a file into .yoi/memory or
// .yoi/knowledge, whatever else it touches.
func TestGuardApplyPatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ev    Event
		deny  bool
		where string
	}{
		{name: "add knowledge", ev: patch("*** Add File: .yoi/knowledge/retry.md\n+x\n"), deny: true, where: ".yoi/knowledge/retry.md"},
		{name: "update summary", ev: patch("*** Update File: .yoi/memory/summary.md\n@@\n-a\n+b\n"), deny: true, where: ".yoi/memory/summary.md"},
		{name: "delete decision", ev: patch("*** Delete File: /home/ann/shop/.yoi/memory/decisions/db.md\n"), deny: true, where: ".yoi/memory/decisions/db.md"},
		{name: "move into memory", ev: patch("*** Update File: notes.md\n*** Move to: .yoi/memory/requests/r.md\n@@\n-a\n+b\n"), deny: true, where: ".yoi/memory/requests/r.md"},
		{name: "second file of many", ev: patch("*** Update File: main.go\n@@\n-a\n+b\n*** Add File: .yoi/knowledge/k.md\n+x\n"), deny: true, where: ".yoi/knowledge/k.md"},
		{name: "CRLF patch", ev: toolEvent("apply_patch", "/r", map[string]any{"command": "*** Begin Patch\r\n*** Add File: .yoi/knowledge/k.md\r\n+x\r\n*** End Patch\r\n"}), deny: true, where: ".yoi/knowledge/k.md"},
		{name: "code only", ev: patch("*** Update File: internal/retry.go\n@@\n-a\n+b\n")},
		{name: "a + line naming memory is content", ev: patch("*** Add File: docs/notes.md\n+*** Add File: .yoi/memory/summary.md\n")},
		{name: "workflow", ev: patch("*** Add File: .yoi/workflow/review.md\n+x\n")},
		{name: "not a patch", ev: toolEvent("apply_patch", "/r", map[string]any{"command": 7})},
		{name: "no input", ev: Event{Kind: PreTool, Tool: "apply_patch"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deny, reason := Guard{}.Tool(tc.ev)
			if deny != tc.deny {
				t.Fatalf("deny = %v (%q); want %v", deny, reason, tc.deny)
			}
			if deny && (!strings.Contains(reason, tc.where) || !strings.Contains(reason, "apply_patch") || !strings.Contains(reason, "memory_write")) {
				t.Errorf("reason %q does not name %s, the tool and the memory tools", reason, tc.where)
			}
		})
	}
}

// TestGuardApplyPatchThroughShell: Codex's model may run apply_patch
// through its shell tool, the patch an argument or a here-document; the
// guard reads the patch there too.
func TestGuardApplyPatchThroughShell(t *testing.T) {
	deny := []string{
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .yoi/knowledge/x.md\n+x\n*** End Patch\nEOF",
		"apply_patch \"*** Begin Patch\n*** Update File: .yoi/memory/summary.md\n@@\n-a\n+b\n*** End Patch\"",
		"bash -lc 'apply_patch <<EOF\n*** Begin Patch\n*** Delete File: .yoi/memory/decisions/db.md\n*** End Patch\nEOF\n'",
		"cd .yoi && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: knowledge/x.md\n+x\n*** End Patch\nEOF",
	}
	allow := []string{
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: docs/x.md\n+*** Add File: .yoi/knowledge/x.md\n*** End Patch\nEOF",
		"cat <<'EOF'\n*** Begin Patch\n*** Add File: .yoi/knowledge/x.md\n*** End Patch\nEOF",
	}
	for _, c := range deny {
		if d, _ := GuardTool(bash(c)); !d {
			t.Errorf("allowed, want denied: %q", c)
		}
	}
	for _, c := range allow {
		if d, r := GuardTool(bash(c)); d {
			t.Errorf("denied (%s), want allowed: %q", r, c)
		}
	}
}
