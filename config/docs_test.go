package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docTable reads the rows of the Markdown table in file whose header row
// is header, as trimmed cells with backticks removed.
func docTable(t *testing.T, file, header string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == header:
			if in || rows != nil {
				t.Fatalf("%s: two tables with the header %s", file, header)
			}
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i, c := range cells {
				cells[i] = strings.TrimSpace(strings.ReplaceAll(c, "`", ""))
			}
			rows = append(rows, cells)
		default:
			in = false
		}
	}
	if rows == nil {
		t.Fatalf("%s: no table with the header %s", file, header)
	}
	return rows
}

// checkTable compares a documentation table (the key in the first cell)
// with the registry: every key once, in the registry's order, and the
// cells check wants.
func checkTable(t *testing.T, file string, rows [][]string, check func(k Key, row []string)) {
	t.Helper()
	keys := Keys()
	at := map[string]int{}
	for i, r := range rows {
		if _, ok := Lookup(r[0]); !ok || at[r[0]] != 0 {
			t.Errorf("%s: %s is not a key, or twice in the table", file, r[0])
			continue
		}
		at[r[0]] = i + 1
	}
	last := 0
	for _, k := range keys {
		i := at[k.Name]
		if i == 0 {
			t.Errorf("%s: %s is missing from the table", file, k.Name)
			continue
		}
		if i < last {
			t.Errorf("%s: %s is out of order (the order of config.Keys)", file, k.Name)
		}
		last = i
		check(k, rows[i-1])
	}
}

// TestReadmeConfigurationTable: README's table lists every key with its
// real default (an empty default is a note in parentheses), so that the
// two cannot drift apart.
func TestReadmeConfigurationTable(t *testing.T) {
	rows := docTable(t, "README.md", "| key | default | meaning |")
	checkTable(t, "README.md", rows, func(k Key, r []string) {
		switch {
		case len(r) != 3:
			t.Errorf("README.md: row %q: want 3 cells", r)
		case k.Default == "" && !strings.HasPrefix(r[1], "("), k.Default != "" && r[1] != k.Default:
			t.Errorf("README.md: %s: default %q, want %q", k.Name, r[1], k.Default)
		}
	})
}

// TestDocsConfigurationTable: docs/configuration.md's table is what
// 'git yoimem config --format json' says of every key.
func TestDocsConfigurationTable(t *testing.T) {
	rows := docTable(t, "docs/configuration.md", "| key | type | default | meaning |")
	checkTable(t, "docs/configuration.md", rows, func(k Key, r []string) {
		def := k.Default
		if def == "" {
			def = "(empty)"
		}
		want := []string{k.Name, k.Type.String(), def, k.Doc}
		if strings.Join(r, " | ") != strings.Join(want, " | ") {
			t.Errorf("docs/configuration.md: %s\n got %q\nwant %q", k.Name, r, want)
		}
	})
}
