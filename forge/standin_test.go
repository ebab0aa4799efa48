package forge

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// standin is a directory of scripts named gh and glab that stand in for
// the real tools: each logs its argv, stdin and environment, then answers
// with what the test wrote for its command (stdout, stderr, exit code).
type standin struct {
	t   *testing.T
	dir string // state: answers and the log of calls
	bin string // the PATH of the tools
}

// script logs a call as call.N.{args,stdin,env} and answers from the files
// KEY.out, KEY.err and KEY.exit, KEY being tool-subcommand-subcommand
// (glab api: glab-api-METHOD, the order Open passes its arguments in).
const script = `#!/bin/sh
PATH=/usr/bin:/bin
export PATH
d="$STANDIN_DIR"
n=$(cat "$d/count" 2>/dev/null || echo 0)
n=$((n+1))
echo "$n" > "$d/count"
name=$(basename "$0")
printf '%s\0' "$name" "$@" > "$d/call.$n.args"
cat > "$d/call.$n.stdin"
env > "$d/call.$n.env"
key="$name-$1-$2"
[ "$1" = api ] && key="$name-api-$3"
if [ -f "$d/$key.sleep" ]; then
	sleep "$(cat "$d/$key.sleep")" &
	echo $! > "$d/$key.sleeper"
	wait
fi
if [ ! -f "$d/$key.exit" ]; then echo "standin: no answer for $key" >&2; exit 97; fi
[ -f "$d/$key.out" ] && cat "$d/$key.out"
[ -f "$d/$key.err" ] && cat "$d/$key.err" >&2
exit "$(cat "$d/$key.exit")"
`

func newStandin(t *testing.T, tools ...string) *standin {
	t.Helper()
	root := t.TempDir()
	s := &standin{t: t, dir: filepath.Join(root, "state"), bin: filepath.Join(root, "bin")}
	for _, d := range []string{s.dir, s.bin} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range tools {
		if err := os.WriteFile(filepath.Join(s.bin, tool), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// answer scripts the reply to key ("gh-pr-list").
func (s *standin) answer(key, stdout, stderr string, code int) {
	s.t.Helper()
	s.write(key+".out", stdout)
	s.write(key+".err", stderr)
	s.write(key+".exit", strconv.Itoa(code))
}

func (s *standin) write(name, content string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, name), []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// env is the tools' environment: only the stand-ins on PATH.
func (s *standin) env(extra ...string) []string {
	return append([]string{"PATH=" + s.bin, "STANDIN_DIR=" + s.dir, "HOME=" + s.dir}, extra...)
}

type call struct {
	Args  []string // argv, the tool's name first
	Stdin []byte
	Env   string
}

func (c call) String() string { return strings.Join(c.Args, " ") }

// calls are the calls the stand-ins received, in order.
func (s *standin) calls() []call {
	s.t.Helper()
	var out []call
	for n := 1; ; n++ {
		args, err := os.ReadFile(filepath.Join(s.dir, "call."+strconv.Itoa(n)+".args"))
		if os.IsNotExist(err) {
			return out
		} else if err != nil {
			s.t.Fatal(err)
		}
		stdin, err := os.ReadFile(filepath.Join(s.dir, "call."+strconv.Itoa(n)+".stdin"))
		if err != nil {
			s.t.Fatal(err)
		}
		env, err := os.ReadFile(filepath.Join(s.dir, "call."+strconv.Itoa(n)+".env"))
		if err != nil {
			s.t.Fatal(err)
		}
		parts := strings.Split(strings.TrimSuffix(string(args), "\x00"), "\x00")
		out = append(out, call{Args: parts, Stdin: stdin, Env: string(env)})
	}
}

// wantCalls checks the argv of each call, and that the calls in stdins
// read that on stdin byte for byte, and the others nothing. A nil stdins
// checks only that the last call read something (the caller checks what).
func (s *standin) wantCalls(want [][]string, stdins map[int][]byte) []call {
	s.t.Helper()
	got := s.calls()
	if len(got) != len(want) {
		s.t.Fatalf("%d calls, want %d:\n%v", len(got), len(want), got)
	}
	for i := range want {
		if strings.Join(got[i].Args, "\x00") != strings.Join(want[i], "\x00") {
			s.t.Errorf("call %d:\n got %q\nwant %q", i+1, got[i].Args, want[i])
		}
		wantIn, ok := stdins[i]
		if stdins == nil && i == len(want)-1 {
			if len(got[i].Stdin) == 0 {
				s.t.Errorf("call %d (%s) read nothing on stdin", i+1, got[i])
			}
			continue
		}
		if !bytes.Equal(got[i].Stdin, wantIn) {
			s.t.Errorf("call %d (%s): stdin is %d bytes, want %d (the body byte for byte: %v)", i+1, got[i], len(got[i].Stdin), len(wantIn), ok)
		}
	}
	return got
}
