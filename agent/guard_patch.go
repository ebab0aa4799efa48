package agent

import (
	"encoding/json"
	"strings"
)

// patchHeaders begin the lines of a Codex apply_patch patch that name a
// file it writes; every other line is a hunk line (+, -, space, @@) or
// the patch's own begin and end.
var patchHeaders = []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "}

// patchTool is the first file under .yoi/memory or .yoi/knowledge that a
// Codex apply_patch call ({"command": "<patch>"}) adds, updates, deletes
// or moves a file to, from .yoi/ on; "" when none.
func (g Guard) patchTool(ev Event) string {
	var in struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(ev.ToolInput, &in) != nil {
		return ""
	}
	return g.patchText(in.Command, ev.Cwd)
}

// patchText is patchTool's answer for patch text, which may also hold
// other lines (a shell command line running apply_patch with the patch
// as an argument or a here-document): a header counts at a line start.
func (g Guard) patchText(text, cwd string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		for _, h := range patchHeaders {
			p, ok := strings.CutPrefix(line, h)
			if !ok {
				continue
			}
			if where, ok := g.memoryPath(strings.TrimSpace(p), cwd, false); ok {
				return where
			}
		}
	}
	return ""
}
