package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	med, lo, hi, mean := summarize([]float64{5, 1, 3})
	if med != 3 || lo != 1 || hi != 5 || mean != 3 {
		t.Errorf("odd: %v %v %v %v", med, lo, hi, mean)
	}
	if med, _, _, _ := summarize([]float64{4, 1, 2, 3}); med != 2.5 {
		t.Errorf("even: median %v", med)
	}
}

func TestParseCodes(t *testing.T) {
	if c, err := parseCodes("0, 1"); err != nil || len(c) != 2 || c[1] != 1 {
		t.Errorf("got %v %v", c, err)
	}
	for _, bad := range []string{"", "x", "0,,1", "-1", "256"} {
		if _, err := parseCodes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func need(t *testing.T, name string) {
	if _, err := exec.LookPath(name); err != nil {
		t.Skip(name, "not found")
	}
}

func TestRun(t *testing.T) {
	need(t, "true")
	need(t, "sh")
	var out bytes.Buffer
	if err := run([]string{"-n", "3", "-warmup", "1", "--", "true"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^median_ms=\d+\.\d{3} min_ms=\d+\.\d{3} max_rss_kib=[1-9]\d* runs=3 cpu_ms=\d+\.\d{3} minflt=[1-9]\d*\n$`)
	if !line.MatchString(out.String()) {
		t.Errorf("text output %q", out.String())
	}

	out.Reset()
	if err := run([]string{"-n", "2", "-warmup", "0", "-json", "-ok-exit", "0,3", "--", "sh", "-c", "exit 3"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var res result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Runs != 2 || len(res.ExitCodes) != 2 || res.ExitCodes[0] != 3 || res.MaxRSSKiB <= 0 || len(res.CPUTimeMS) != 2 ||
		len(res.MinorFaults) != 2 || res.MinorFaults[0] <= 0 || res.MinFltMedian <= 0 {
		t.Errorf("json %+v", res)
	}

	err := run([]string{"-n", "1", "--", "sh", "-c", "echo boom >&2; exit 4"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "exit status 4") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failing command: %v", err)
	}
	if err := run([]string{"-n", "1"}, io.Discard, io.Discard); err == nil {
		t.Error("no command accepted")
	}
}

// TestRunStdin: -stdin hands each run the file from its start; without
// it the command reads nothing; a file that cannot be opened is refused
// before any run.
func TestRunStdin(t *testing.T) {
	need(t, "sh")
	in := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(in, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := []string{"--", "sh", "-c", `read -r x && test "$x" = hello`}
	if err := run(append([]string{"-n", "2", "-warmup", "1", "-stdin", in}, check...), io.Discard, io.Discard); err != nil {
		t.Errorf("with -stdin: %v", err)
	}
	if err := run(append([]string{"-n", "1", "-warmup", "0"}, check...), io.Discard, io.Discard); err == nil {
		t.Error("without -stdin the command read a line")
	}
	err := run(append([]string{"-n", "1", "-stdin", in + ".absent"}, check...), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "in.json.absent") {
		t.Errorf("absent -stdin file: %v", err)
	}
}
