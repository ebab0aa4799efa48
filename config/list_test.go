package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestListKey: yoimem.consolidate.locked is a list, as git's multi-valued
// keys: every setting in every layer adds an item, in the order of the
// layers (file, git, flags); an empty value clears the items before it.
func TestListKey(t *testing.T) {
	const key = KeyConsolidateLocked
	tests := []struct {
		name             string
		file, git, flags []Entry
		want             []string
		raw              string
		origin           Origin
		items            []Item // as set, each with where
	}{
		{"default", nil, nil, nil, nil, "", Origin{}, nil},
		{"file", []Entry{fe(3, key, "knowledge/retry.md"), fe(4, key, ".yoi/memory/decisions/db-*.md")}, nil, nil,
			[]string{"knowledge/retry.md", "memory/decisions/db-*.md"}, "knowledge/retry.md, .yoi/memory/decisions/db-*.md", Origin{Kind: File, Detail: ".yoi/config"},
			[]Item{{"knowledge/retry.md", Origin{Kind: File, Detail: ".yoi/config"}, 3}, {".yoi/memory/decisions/db-*.md", Origin{Kind: File, Detail: ".yoi/config"}, 4}}},
		{"layers add up", []Entry{fe(3, key, "knowledge/a.md")}, []Entry{ge("yoimem.consolidate.LOCKED", "knowledge/b.md")}, []Entry{ce(key, "knowledge/c.md")},
			[]string{"knowledge/a.md", "knowledge/b.md", "knowledge/c.md"}, "knowledge/a.md, knowledge/b.md, knowledge/c.md", flagC,
			[]Item{{"knowledge/a.md", Origin{Kind: File, Detail: ".yoi/config"}, 3}, {"knowledge/b.md", gitLocal, 0}, {"knowledge/c.md", flagC, 0}}},
		{"an empty value clears what came before", []Entry{fe(3, key, "knowledge/a.md")}, []Entry{ge(key, ""), ge(key, "knowledge/b.md")}, nil,
			[]string{"knowledge/b.md"}, "knowledge/b.md", gitLocal, []Item{{"knowledge/b.md", gitLocal, 0}}},
		{"cleared last", []Entry{fe(3, key, "knowledge/a.md")}, nil, []Entry{ce(key, "")}, nil, "", flagC, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warnings, err := Resolve(tt.file, tt.git, tt.flags)
			if err != nil || len(warnings) != 0 {
				t.Fatalf("Resolve: %v %v", err, warnings)
			}
			if got := c.List(key); !slices.Equal(got, tt.want) {
				t.Errorf("List = %q, want %q", got, tt.want)
			}
			if got := c.Locks(); !slices.Equal(got, record.Locks(tt.want)) {
				t.Errorf("Locks = %q, want %q", got, tt.want)
			}
			v, _ := c.Get(key)
			if v.Raw != tt.raw || v.Origin != tt.origin || v.Key.Type != List {
				t.Errorf("Get = %+v, want raw %q from %v", v, tt.raw, tt.origin)
			}
			if c.String(key) != tt.raw {
				t.Errorf("String = %q", c.String(key))
			}
			if got := v.Items(); !slices.Equal(got, tt.items) {
				t.Errorf("Items = %+v, want %+v", got, tt.items)
			}
		})
	}
	if got := Defaults().List(KeySearchMaxResults); got != nil {
		t.Errorf("List of a non-list key = %q", got)
	}
	if v, _ := Defaults().Get(KeySearchMaxResults); v.Items() != nil {
		t.Errorf("Items of a non-list key = %+v", v.Items())
	}
}

// TestListKeyErrors: every bad item is an error naming where it was set,
// the key, the value and what a lock takes; the configuration is then nil.
func TestListKeyErrors(t *testing.T) {
	const key = KeyConsolidateLocked
	file := []Entry{
		fe(3, key, "knowledge/ok.md"),
		fe(4, key, "../outside.md"),
		fe(5, key, "knowledge/a.md, knowledge/b.md"),
		{Name: key, NoValue: true, Origin: Origin{Kind: File, Detail: ".yoi/config"}, Line: 6},
	}
	c, _, err := Resolve(file, []Entry{ge(key, "/abs.md")}, nil)
	if c != nil || err == nil {
		t.Fatalf("Resolve = %v, %v", c, err)
	}
	for _, want := range []string{
		`.yoi/config:4: yoimem.consolidate.locked = "../outside.md": expected a record path or pattern under .yoi/`,
		"leaves .yoi/",
		`.yoi/config:5: yoimem.consolidate.locked = "knowledge/a.md, knowledge/b.md"`,
		"one line each",
		".yoi/config:6: yoimem.consolidate.locked has no value",
		`git config (local: .git/config): yoimem.consolidate.locked = "/abs.md"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nlacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "ok.md") {
		t.Errorf("a good item reported: %v", err)
	}
}

// TestListKeyInTemplate: the file init writes lists the key commented
// out, and uncommenting it gives no lock.
func TestListKeyInTemplate(t *testing.T) {
	text := DefaultFileText()
	if !strings.Contains(text, "\t# locked =\n") {
		t.Fatalf("template lacks locked:\n%s", text)
	}
	entries, err := ParseFile(strings.NewReader(strings.Replace(text, "\t# locked =\n", "\tlocked =\n", 1)), ".yoi/config")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := Resolve(entries, nil, nil)
	if err != nil || len(c.List(KeyConsolidateLocked)) != 0 {
		t.Errorf("uncommented: %v %q", err, c.List(KeyConsolidateLocked))
	}
}
