package setup

import (
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		names   []string
		scope   string
		want    string // agent names, comma-separated
		wantErr string
	}{
		{[]string{"claude-code"}, "project", "claude-code", ""},
		{[]string{"claude-code", "claude-code"}, "project", "claude-code", ""},
		{[]string{"all"}, "project", "claude-code,codex", ""},
		{[]string{"all"}, "local", "claude-code", ""},
		{[]string{"codex"}, "local", "", "--scope local: codex has no local scope (want project or user)"},
		{[]string{"cursor"}, "project", "", `--agent: unknown agent "cursor"`},
		{[]string{"codex"}, "global", "", `--scope: unknown scope "global"`},
	} {
		as, _, err := Select(tc.names, tc.scope)
		var got []string
		for _, a := range as {
			got = append(got, a.Name)
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Select(%v, %s) = %v, %v; want error %q", tc.names, tc.scope, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(got, ",") != tc.want {
			t.Errorf("Select(%v, %s) = %v, %v; want %s", tc.names, tc.scope, got, err, tc.want)
		}
	}
}

func TestUserCreatedRecord(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/git-yoimem/created.json"},
		{map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/git-yoimem/created.json"},
		{map[string]string{"HOME": "rel"}, ""},
	} {
		if got := UserCreatedRecord(env(tc.env)); got != tc.want {
			t.Errorf("UserCreatedRecord(%v) = %q; want %q", tc.env, got, tc.want)
		}
	}
}
