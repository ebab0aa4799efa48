package extract

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleStaging() Staging {
	return Staging{
		Version:   StagingVersion,
		ID:        "0190f5a3-0000-7000-8000-000000000001",
		CreatedAt: time.Date(2026, 9, 1, 10, 1, 5, 123456789, time.UTC),
		Source:    Source{SessionID: "0190f5a2-7c1e-7b3a-9d2e-4f6a8b0c1d2e", Range: [2]int{3, 12}},
		Agent:     "native",
		Model:     "anthropic:claude-sonnet-4-5",
		Activity: Activity{
			Decisions:   []Decision{{Topic: "refund key", Options: []string{"uuid", "ledger id"}, Chosen: "ledger id", Rationale: "the ledger dedupes on it"}},
			Discussions: []Discussion{{Topic: "retries", Points: []string{"twice", "with backoff"}}},
			Attempts:    []Attempt{{What: "go test ./internal/refund/", Result: "ok", Success: true}, {What: "make lint", Result: "2 findings", Success: false}},
			Requests:    []Request{{Intent: "idempotent refunds", Target: "internal/refund", Summary: "add a key"}},
		},
	}
}

// noNulls fails if the JSON in b holds a null anywhere.
func noNulls(t *testing.T, b []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case nil:
			t.Errorf("null at %s in %s", path, b)
		case map[string]any:
			for k, x := range v {
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	walk("", v)
}

// stagingEqual compares two staging records, the creation time as an
// instant.
func stagingEqual(a, b Staging) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return false
	}
	a.CreatedAt, b.CreatedAt = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

func TestStagingRoundTrip(t *testing.T) {
	empty := sampleStaging()
	empty.Activity = Activity{}
	nilInside := sampleStaging()
	nilInside.Activity = Activity{Decisions: []Decision{{Topic: "t", Chosen: "c"}}, Discussions: []Discussion{{Topic: "d"}}}
	tests := []struct {
		name string
		s    Staging
		has  []string // in the bytes
	}{
		{"full", sampleStaging(), []string{`"session_id": "0190f5a2-7c1e-7b3a-9d2e-4f6a8b0c1d2e"`, `"created_at": "2026-09-01T10:01:05.123456789Z"`}},
		{"nothing to save", empty, []string{`"decisions": []`, `"discussions": []`, `"attempts": []`, `"requests": []`}},
		{"nil inside items", nilInside, []string{`"options": []`, `"points": []`, `"attempts": []`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.s.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasSuffix(b, []byte("}\n")) || bytes.Count(b, []byte("\n")) < 10 {
				t.Errorf("not indented JSON ending in a newline:\n%s", b)
			}
			noNulls(t, b)
			for _, h := range tc.has {
				if !bytes.Contains(b, []byte(h)) {
					t.Errorf("bytes lack %s:\n%s", h, b)
				}
			}
			got, err := ParseStaging("x.json", b)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.s
			want.Activity.normalize()
			if !stagingEqual(got, want) {
				t.Errorf("round trip\n got %+v\nwant %+v", got, want)
			}
			if tc.s.Activity.Decisions == nil && got.Activity.Decisions == nil {
				t.Error("ParseStaging left a nil array")
			}
		})
	}
}

// TestParseStagingNormalizes: missing or null arrays read as empty ones.
func TestParseStagingNormalizes(t *testing.T) {
	for _, in := range []string{
		`{"version": 1, "id": "x", "source": {"session_id": "s", "range": [1, 2]}}`,
		`{"version": 1, "id": "x", "source": {"session_id": "s", "range": [1, 2]}, "activity": null}`,
		`{"version": 1, "id": "x", "source": {"session_id": "s", "range": [1, 2]}, "activity": {"decisions": null, "discussions": null, "attempts": null, "requests": null}}`,
	} {
		s, err := ParseStaging("x.json", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		a := s.Activity
		if a.Decisions == nil || a.Discussions == nil || a.Attempts == nil || a.Requests == nil || !a.Empty() {
			t.Errorf("%s: activity %#v", in, a)
		}
	}
	s, err := ParseStaging("x.json", []byte(`{"version": 1, "id": "x", "source": {"session_id": "s", "range": [1, 2]},
		"activity": {"decisions": [{"topic": "t"}], "discussions": [{"topic": "d", "points": null}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Activity.Decisions[0].Options == nil || s.Activity.Discussions[0].Points == nil {
		t.Errorf("nil inside items: %#v", s.Activity)
	}
}

func TestParseStagingErrors(t *testing.T) {
	const name = ".yoi/memory/_staging/0190f5a3.json"
	valid, err := sampleStaging().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	// edit replaces old by new in the valid file.
	edit := func(old, new string) string {
		if !bytes.Contains(valid, []byte(old)) {
			t.Fatalf("%q not in the sample", old)
		}
		return strings.Replace(string(valid), old, new, 1)
	}
	tests := []struct {
		name string
		in   string
		want string // in the error, with the file name
	}{
		{"not JSON", "{version: 1", "invalid character"},
		{"empty file", "", "unexpected end of JSON input"},
		{"truncated", string(valid[:len(valid)/2]), "unexpected end of JSON input"},
		{"array", "[]", "cannot unmarshal array"},
		{"version a string", edit(`"version": 1`, `"version": "1"`), "version"},
		{"wrong version", edit(`"version": 1`, `"version": 2`), "version 2"},
		{"no version", edit(`"version": 1,`, ``), "version 0"},
		{"no id", edit(`"id": "0190f5a3-0000-7000-8000-000000000001"`, `"id": ""`), "no id"},
		{"no session_id", edit(`"session_id": "0190f5a2-7c1e-7b3a-9d2e-4f6a8b0c1d2e"`, `"session_id": ""`), "session_id"},
		{"no source", `{"version": 1, "id": "x"}`, "session_id"},
		{"range starts at 0", edit("3,\n      12", "0,\n      12"), "range [0 12]"},
		{"range backwards", edit("3,\n      12", "12,\n      3"), "range [12 3]"},
		{"no range", `{"version": 1, "id": "x", "source": {"session_id": "s"}}`, "range [0 0]"},
		{"range not numbers", edit("3,\n      12", `"a", "b"`), "range"},
		{"bad time", edit(`"2026-09-01T10:01:05.123456789Z"`, `"yesterday"`), "yesterday"},
		{"activity wrong type", edit(`"success": true`, `"success": "yes"`), "success"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseStaging(name, []byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, name+": ") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q: want the file name and %q", msg, tc.want)
			}
		})
	}
}
