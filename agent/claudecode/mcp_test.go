package claudecode

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMergeMCPGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mcp", "*.json"))
	if len(files) == 0 {
		t.Fatal("no .mcp.json fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		old, _ := os.ReadFile(f)
		for _, write := range []bool{false, true} {
			t.Run(fmt.Sprint(name, write), func(t *testing.T) {
				merged, err := MergeMCP(old, write)
				if err != nil {
					t.Fatal(err)
				}
				suffix := ".merged.json"
				if write {
					suffix = ".write.json"
				}
				golden(t, filepath.Join("mcp", name+suffix), merged)
				checkMCP(t, old, merged, write)
			})
		}
	}
}

func checkMCP(t *testing.T, old, merged []byte, write bool) {
	t.Helper()
	var v struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(merged, &v); err != nil {
		t.Fatalf("%v\n%s", err, merged)
	}
	args, ok := ourMCP(v.MCPServers[MCPServer])
	if !ok || (len(args) == 3) != write {
		t.Errorf("server %s (write %v) in\n%s", v.MCPServers[MCPServer], write, merged)
	}
	if again, err := MergeMCP(merged, write); err != nil || string(again) != string(merged) {
		t.Errorf("merging twice differs (%v):\n%s", err, again)
	}
	back, err := UnmergeMCP(merged)
	if err != nil {
		t.Fatal(err)
	}
	want := string(old)
	if strings.TrimSpace(want) == "" {
		want = "{}\n"
	}
	if string(back) != want {
		t.Errorf("Unmerge(Merge(x)) != x\n got: %q\nwant: %q", back, want)
	}
}

func TestMergeMCPSwitchWrite(t *testing.T) {
	old := []byte("{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"pg-mcp\"}\n  }\n}\n")
	ro, _ := MergeMCP(old, false)
	rw, err := MergeMCP(ro, true)
	if err != nil || !strings.Contains(string(rw), `"--write"`) || !strings.Contains(string(rw), `"pg-mcp"`) {
		t.Fatalf("%v\n%s", err, rw)
	}
	ro2, _ := MergeMCP(rw, false)
	if string(ro2) != string(ro) {
		t.Errorf("switching back differs:\n%s\n%s", ro2, ro)
	}
	if back, _ := UnmergeMCP(rw); string(back) != string(old) {
		t.Errorf("unmerged %q", back)
	}
}

func TestMergeMCPRefusesTheUsersServer(t *testing.T) {
	old := `{"mcpServers": {"yoimem": {"command": "my-own-yoimem"}}}`
	if _, err := MergeMCP([]byte(old), false); err == nil || !strings.Contains(err.Error(), "not git-yoimem's") {
		t.Errorf("err = %v", err)
	}
	if back, _ := UnmergeMCP([]byte(old)); string(back) != old {
		t.Errorf("unmerge changed the user's server: %s", back)
	}
	for in, want := range map[string]string{`{"mcpServers": []}`: "not a JSON object", `{"mcpServers": {},}`: "not valid JSON"} {
		if _, err := MergeMCP([]byte(in), false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestMergeMCPProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 300; i++ {
		x := genMCP(rng)
		write := rng.Intn(2) == 0
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			merged, err := MergeMCP(x, write)
			if err != nil {
				t.Fatalf("%v\n%s", err, x)
			}
			checkMCP(t, x, merged, write)
		})
	}
}

func genMCP(rng *rand.Rand) []byte {
	ind := []string{"  ", "    ", "\t"}[rng.Intn(3)]
	nl := []string{"\n", "\r\n"}[rng.Intn(2)]
	colon := []string{": ", ":"}[rng.Intn(2)]
	servers := []string{
		`"db"` + colon + `{"type": "stdio", "command": "pg-mcp", "env": {"PGHOST": "localhost"}}`,
		`"remote"` + colon + `{"type": "http", "url": "${API_BASE_URL:-https://example.com}/mcp"}`,
	}
	var s string
	switch rng.Intn(4) {
	case 0:
		s = "{}"
	case 1:
		s = "{ }"
	default:
		n := rng.Intn(len(servers)) + 1
		s = "{" + nl + ind + ind + strings.Join(servers[:n], ","+nl+ind+ind) + nl + ind + "}"
	}
	members := []string{`"mcpServers"` + colon + s}
	if rng.Intn(3) == 0 {
		members = []string{}
	}
	if rng.Intn(2) == 0 {
		members = append(members, `"$schema"`+colon+`"https://example.com/mcp.schema.json"`)
	}
	if len(members) == 0 {
		return []byte("{}" + nl)
	}
	if rng.Intn(4) == 0 {
		return []byte("{" + strings.Join(members, ",") + "}")
	}
	return []byte("{" + nl + ind + strings.Join(members, ","+nl+ind) + nl + "}" + nl)
}

func FuzzMergeMCP(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mcp", "*.json"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b, false)
	}
	f.Fuzz(func(t *testing.T, old []byte, write bool) {
		merged, err := MergeMCP(old, write)
		if err != nil {
			return
		}
		checkMCP(t, old, merged, write)
	})
}
