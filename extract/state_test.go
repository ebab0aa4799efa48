package extract

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/sessionlog"
)

func sampleState() State {
	return State{
		Version: StateVersion,
		Format:  "claude-code",
		Session: "11111111-2222-3333-4444-555555555555",
		Log:     "/home/bob/.claude/projects/app/11111111.jsonl",
		Pointer: Position{Index: 12, Offset: 6425},
		Scan: Scan{
			Position: Position{Index: 30, Offset: 15238},
			Tokens:   162073,
			Calls:    6,
			Seen:     []string{"msg_D", "msg_E"},
			Guard:    GuardOf([]byte("some bytes")),
			At:       time.Date(2026, 8, 5, 19, 41, 2, 0, time.UTC),
		},
	}
}

// stateEqual compares two states, the scan time as an instant and an
// empty Seen as none.
func stateEqual(a, b State) bool {
	if !a.Scan.At.Equal(b.Scan.At) {
		return false
	}
	a.Scan.At, b.Scan.At = time.Time{}, time.Time{}
	if len(a.Scan.Seen) == 0 && len(b.Scan.Seen) == 0 {
		a.Scan.Seen, b.Scan.Seen = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

func TestStateRoundTrip(t *testing.T) {
	fresh := State{Format: "native", Session: "s"}
	noVersion := sampleState()
	noVersion.Version = 0
	tests := []struct {
		name   string
		s      State
		has    []string
		hasNot []string
	}{
		{"full", sampleState(), []string{`"tokens_since_pointer": 162073`, `"calls_since_pointer": 6`, `"index": 30`, `"offset": 15238`, `"guard": "`, `"at": "2026-08-05T19:41:02Z"`}, nil},
		{"fresh: optional fields left out", fresh, []string{`"version": 1`, `"pointer": {`}, []string{`"seen"`, `"guard"`, `"at"`}},
		{"Marshal sets the version", noVersion, []string{`"version": 1`}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.s.Marshal()
			if !bytes.HasSuffix(b, []byte("}\n")) || !json.Valid(b) {
				t.Fatalf("not a JSON file ending in a newline:\n%s", b)
			}
			for _, h := range tc.has {
				if !bytes.Contains(b, []byte(h)) {
					t.Errorf("bytes lack %s:\n%s", h, b)
				}
			}
			for _, h := range tc.hasNot {
				if bytes.Contains(b, []byte(h)) {
					t.Errorf("bytes hold %s:\n%s", h, b)
				}
			}
			got, err := ParseState("state.json", b)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.s
			want.Version = StateVersion
			if !stateEqual(got, want) {
				t.Errorf("round trip\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestParseStateErrors(t *testing.T) {
	const name = ".git/yoimem/extract/11111111.json"
	with := func(f func(*State)) string {
		s := sampleState()
		f(&s)
		return string(s.Marshal())
	}
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"not JSON", "nope", "invalid character"},
		{"empty", "", "unexpected end of JSON input"},
		{"wrong version", strings.Replace(with(func(*State) {}), `"version": 1`, `"version": 2`, 1), "version 2"},
		{"no version", `{"format": "native"}`, "version 0"},
		{"negative pointer index", with(func(s *State) { s.Pointer.Index = -1 }), "out of order"},
		{"negative pointer offset", with(func(s *State) { s.Pointer.Offset = -1 }), "out of order"},
		{"scan offset before the pointer", with(func(s *State) { s.Scan.Offset = s.Pointer.Offset - 1 }), "out of order"},
		{"scan index before the pointer", with(func(s *State) { s.Scan.Index = s.Pointer.Index - 1 }), "out of order"},
		{"scan at zero, pointer ahead", with(func(s *State) { s.Scan.Position = Position{} }), "out of order"},
		{"tokens over 2^53", with(func(s *State) { s.Scan.Tokens = 1<<53 + 1 }), "tokens_since_pointer 9007199254740993 is over 9007199254740992"},
		{"tokens 2^63-1", with(func(s *State) { s.Scan.Tokens = 1<<63 - 1 }), "tokens_since_pointer"},
		{"tokens a string", strings.Replace(with(func(*State) {}), `"tokens_since_pointer": 162073`, `"tokens_since_pointer": "many"`, 1), "tokens_since_pointer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseState(name, []byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, name+": ") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q: want the file name and %q", msg, tc.want)
			}
		})
	}
	// Positions equal to each other are in order.
	s := sampleState()
	s.Scan.Position = s.Pointer
	if _, err := ParseState(name, s.Marshal()); err != nil {
		t.Errorf("scan at the pointer: %v", err)
	}
}

func TestDue(t *testing.T) {
	tests := []struct {
		name      string
		pointer   int
		scan      int
		tokens    int64
		threshold int64
		want      bool
	}{
		{"below", 10, 20, 999, 1000, false},
		{"at", 10, 20, 1000, 1000, true},
		{"above", 10, 20, 5000, 1000, true},
		{"no new line", 20, 20, 5000, 1000, false},
		{"zero threshold, new lines", 20, 21, 0, 0, true},
		{"zero threshold, nothing new", 20, 20, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := State{Pointer: Position{Index: tc.pointer}, Scan: Scan{Position: Position{Index: tc.scan}, Tokens: tc.tokens}}
			if got := s.Due(tc.threshold); got != tc.want {
				t.Errorf("Due(%d) = %v, want %v", tc.threshold, got, tc.want)
			}
		})
	}
}

func TestMovePointer(t *testing.T) {
	s := sampleState()
	before := sampleState()
	if !s.Due(1000) {
		t.Fatal("sample not due")
	}
	s.MovePointer()
	if s.Pointer != before.Scan.Position {
		t.Errorf("pointer %+v, want the scan position %+v", s.Pointer, before.Scan.Position)
	}
	if s.Scan.Position != before.Scan.Position || s.Scan.Tokens != 0 || s.Scan.Calls != 0 {
		t.Errorf("scan %+v: want the same position and no tokens or calls", s.Scan)
	}
	if !slices.Equal(s.Scan.Seen, before.Scan.Seen) || s.Scan.Guard != before.Scan.Guard || !s.Scan.At.Equal(before.Scan.At) {
		t.Errorf("scan bookkeeping changed: %+v", s.Scan)
	}
	if s.Due(0) {
		t.Error("due right after the pointer moved")
	}
	if _, err := ParseState("x", s.Marshal()); err != nil {
		t.Errorf("state after MovePointer does not parse: %v", err)
	}
}

func TestGuardOf(t *testing.T) {
	a, b := GuardOf([]byte("abc")), GuardOf([]byte("abd"))
	if len(a) != 24 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Errorf("guard %q: want 24 hex digits", a)
	}
	if a == b || a != GuardOf([]byte("abc")) {
		t.Errorf("guards %q %q", a, b)
	}
}

func TestNativePointerLine(t *testing.T) {
	tests := []struct {
		name    string
		session string
		at      time.Time
		p       NativePointer
	}{
		{"with staging", "0190f5a2-7c1e-7b3a-9d2e-4f6a8b0c1d2e", time.Date(2026, 9, 1, 12, 1, 5, 500, time.FixedZone("CEST", 2*3600)),
			NativePointer{Through: 12, Offset: 4096, Staging: "0190f5a3-0000-7000-8000-000000000001"}},
		{"without staging", "s", time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC), NativePointer{Through: 1, Offset: 1}},
		{"quotes in the session", `a"b\c`, time.Unix(0, 0), NativePointer{Through: 3, Offset: 900}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line := NativePointerLine(tc.session, tc.at, tc.p)
			if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 || !json.Valid(line) {
				t.Fatalf("not one JSON line: %q", line)
			}
			if tc.p.Staging == "" && bytes.Contains(line, []byte(`"staging"`)) {
				t.Errorf("empty staging written: %s", line)
			}
			// Appended to a log after two lines, the native reader sees it.
			log := []byte(`{"type":"user","ts":"2026-09-01T10:00:05Z","session_id":"s","text":"hi"}` + "\n" +
				`{"type":"assistant","ts":"2026-09-01T10:00:09Z","session_id":"s","message_id":"m","text":"hello"}` + "\n")
			log = append(log, line...)
			entries, err := sessionlog.NewReader(bytes.NewReader(log), sessionlog.Native, sessionlog.Options{}).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 3 {
				t.Fatalf("%d entries", len(entries))
			}
			e := entries[2]
			if e.Kind != sessionlog.KindExtension || e.Extension == nil || e.Problem != "" {
				t.Fatalf("entry %+v: want an extension", e)
			}
			if e.Index != 3 || e.End != int64(len(log)) || e.SessionID != tc.session {
				t.Errorf("entry index %d end %d session %q", e.Index, e.End, e.SessionID)
			}
			if !e.Time.Equal(tc.at) || e.Time.Location() != time.UTC {
				t.Errorf("time %v, want %v in UTC", e.Time, tc.at)
			}
			p, ok := ParseNativePointer(e.Extension.Domain, e.Extension.Payload)
			if !ok || p != tc.p {
				t.Errorf("ParseNativePointer = %+v %v, want %+v", p, ok, tc.p)
			}
		})
	}
}

func TestParseNativePointer(t *testing.T) {
	tests := []struct {
		name    string
		domain  string
		payload string
		ok      bool
	}{
		{"valid", PointerDomain, `{"through": 12, "offset": 4096, "staging": "x"}`, true},
		{"valid without staging", PointerDomain, `{"through": 1, "offset": 1}`, true},
		{"unknown fields ignored", PointerDomain, `{"through": 2, "offset": 9, "note": "x"}`, true},
		{"other domain", "memory.recall", `{"through": 12, "offset": 4096}`, false},
		{"no domain", "", `{"through": 12, "offset": 4096}`, false},
		{"domain differs in case", "Memory.Extract", `{"through": 12, "offset": 4096}`, false},
		{"no payload", PointerDomain, ``, false},
		{"null", PointerDomain, `null`, false},
		{"empty object", PointerDomain, `{}`, false},
		{"array", PointerDomain, `[12, 4096]`, false},
		{"string", PointerDomain, `"12"`, false},
		{"not JSON", PointerDomain, `{through: 12}`, false},
		{"through zero", PointerDomain, `{"through": 0, "offset": 4096}`, false},
		{"through negative", PointerDomain, `{"through": -3, "offset": 4096}`, false},
		{"offset zero", PointerDomain, `{"through": 12, "offset": 0}`, false},
		{"offset negative", PointerDomain, `{"through": 12, "offset": -1}`, false},
		{"through a string", PointerDomain, `{"through": "12", "offset": 4096}`, false},
		{"through fractional", PointerDomain, `{"through": 1.5, "offset": 4096}`, false},
		{"a range instead", PointerDomain, `{"range": [1, 12], "staging": "x"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := ParseNativePointer(tc.domain, []byte(tc.payload))
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v (%+v)", ok, tc.ok, p)
			}
			if !ok && p != (NativePointer{}) {
				t.Errorf("rejected payload returned %+v", p)
			}
		})
	}
}
