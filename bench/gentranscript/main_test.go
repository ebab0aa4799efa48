package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, p := range []string{a, b} {
		if err := run([]string{"-mb", "0.5", "-tool-heavy", "-o", p}, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) < 500_000 || !bytes.Equal(da, db) {
		t.Fatalf("not deterministic, or too small: %d and %d bytes", len(da), len(db))
	}
	if err := run([]string{"-append-turn", "-o", a}, io.Discard); err != nil {
		t.Fatal(err)
	}
	grown, _ := os.ReadFile(a)
	if !bytes.HasPrefix(grown, da) || len(grown) == len(da) {
		t.Fatalf("append-turn: %d bytes, was %d", len(grown), len(da))
	}
	lines := bytes.Split(bytes.TrimSuffix(grown, []byte("\n")), []byte("\n"))
	for i, l := range lines {
		if !json.Valid(l) {
			t.Fatalf("line %d is not JSON: %.100s", i+1, l)
		}
	}
	if err := run([]string{"-mb", "1"}, io.Discard); err == nil {
		t.Fatal("no -o: no error")
	}
}
