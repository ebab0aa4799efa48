package record

import "testing"

func TestToolPathAndDisplayPath(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "knowledge/retry.md", want: "knowledge/retry.md"},
		{in: ".yoi/knowledge/retry.md", want: "knowledge/retry.md"},
		{in: ".yoi/memory/summary.md", want: "memory/summary.md"},
		{in: ".yoi/", bad: true},
		{in: ".yoi/../x.md", bad: true},
		{in: "/etc/passwd", bad: true},
	}
	for _, tt := range tests {
		got, err := ToolPath(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("ToolPath(%q) = %q, %v; want %q, bad=%v", tt.in, got, err, tt.want, tt.bad)
		}
		if !tt.bad {
			if back, _ := ToolPath(DisplayPath(got)); back != got {
				t.Errorf("ToolPath(DisplayPath(%q)) = %q", got, back)
			}
		}
	}
}
