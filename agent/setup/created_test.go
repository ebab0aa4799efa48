package setup

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUninstallKeepsTheUsersFiles: uninstall removes a file left
// holding nothing only if install created it (the record says so); the
// user's own "{}" or blank file gets its bytes back, and without a
// record nothing is removed.
func TestUninstallKeepsTheUsersFiles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		before   *string // .mcp.json before install; nil: none
		noRecord bool    // Locations.Created ""
		lose     bool    // the record is deleted between install and uninstall
		want     *string // .mcp.json after uninstall; nil: removed
		action   Action
	}{
		{"created by install", nil, false, false, nil, Remove},
		{"the user's {}", ptr("{}"), false, false, ptr("{}"), Update},
		{"the user's {} and a line end", ptr("{}\n"), false, false, ptr("{}\n"), Update},
		{"the user's {} with CRLF", ptr("{}\r\n"), false, false, ptr("{}\r\n"), Update},
		{"the user's empty file", ptr(""), false, false, ptr(""), Update},
		{"the user's blank lines", ptr("\n\n"), false, false, ptr("\n\n"), Update},
		{"no record kept: never removed", nil, true, false, ptr("{}\n"), Update},
		{"the record lost: kept", nil, false, true, ptr("{}\n"), Update},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			if tc.noRecord {
				tr.created = ""
			}
			p := filepath.Join(tr.top, ".mcp.json")
			if tc.before != nil {
				tr.write(".mcp.json", *tc.before, 0o644)
			}
			tr.install(Project, Options{})
			if tc.lose {
				if err := os.Remove(tr.created); err != nil {
					t.Fatal(err)
				}
			}
			u := tr.uninstall(Project)
			if got := u.Changes[1]; got.File.Show != ".mcp.json" || got.Action != tc.action || got.Kept != (tc.action != Remove) {
				t.Errorf("uninstall %s: %s kept %v; want %s", got.File.Show, got.Action, got.Kept, tc.action)
			}
			b, err := os.ReadFile(p)
			switch {
			case tc.want == nil && !os.IsNotExist(err):
				t.Errorf(".mcp.json: %q, %v; want it removed", b, err)
			case tc.want != nil && (err != nil || string(b) != *tc.want):
				t.Errorf(".mcp.json: %q, %v; want %q", b, err, *tc.want)
			}
			if _, err := os.Stat(tr.created); !os.IsNotExist(err) {
				t.Errorf("the record is left after uninstall: %v", err)
			}
			// and it installs again from what is left
			tr.install(Project, Options{})
		})
	}
}

func ptr(s string) *string { return &s }
