package extract

import (
	"bytes"
	"testing"
)

// FuzzStaging: ParseStaging never panics, and what it accepts re-marshals
// (without nulls) to bytes that parse to the same value and marshal to the
// same bytes.
func FuzzStaging(f *testing.F) {
	full, err := sampleStaging().Marshal()
	if err != nil {
		f.Fatal(err)
	}
	empty := sampleStaging()
	empty.Activity = Activity{}
	emptyBytes, err := empty.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(full),
		string(emptyBytes),
		`{"version":1,"id":"x","source":{"session_id":"s","range":[1,1]}}`,
		`{"version":1,"id":"x","created_at":"2026-01-02T03:04:05+01:00","source":{"session_id":"s","range":[2,9]},"activity":{"decisions":[{"topic":"t","options":null}],"discussions":[{}],"attempts":null,"requests":[]}}`,
		`{"version":1,"id":"\u00e9\ud800","source":{"session_id":"s","range":[1,2,3]},"activity":null}`,
		`{"version":2}`,
		`[]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseStaging("f.json", data)
		if err != nil {
			return
		}
		b, err := s.Marshal()
		if err != nil {
			t.Fatalf("parsed staging does not marshal: %v\n%+v", err, s)
		}
		noNulls(t, b)
		s2, err := ParseStaging("f.json", b)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, b)
		}
		if !stagingEqual(s, s2) {
			t.Fatalf("round trip changed the value\n%+v\n%+v", s, s2)
		}
		b2, err := s2.Marshal()
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("marshal not stable (%v)\n%s\n%s", err, b, b2)
		}
	})
}

// FuzzState: the same for machine-local state files.
func FuzzState(f *testing.F) {
	fresh := State{Format: "native", Session: "s"}
	moved := sampleState()
	moved.MovePointer()
	for _, seed := range []string{
		string(sampleState().Marshal()),
		string(fresh.Marshal()),
		string(moved.Marshal()),
		`{"version":1,"pointer":{"index":1,"offset":10},"scan":{"index":1,"offset":10,"seen":[],"at":"0001-01-01T00:00:00Z"}}`,
		`{"version":1,"scan":{"index":3,"offset":99,"at":"2026-01-02T03:04:05.5-07:00","tokens_since_pointer":-5}}`,
		`{"version":1,"pointer":{"index":5,"offset":10},"scan":{"index":4,"offset":10}}`,
		`{"version":0}`,
		`null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseState("s.json", data)
		if err != nil {
			return
		}
		b := s.Marshal()
		s2, err := ParseState("s.json", b)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, b)
		}
		if !stateEqual(s, s2) {
			t.Fatalf("round trip changed the value\n%+v\n%+v", s, s2)
		}
		if b2 := s2.Marshal(); !bytes.Equal(b, b2) {
			t.Fatalf("marshal not stable\n%s\n%s", b, b2)
		}
	})
}
