// Command timeit runs a command repeatedly and reports its median and minimum
// wall time, the largest peak RSS of any measured run and the median CPU
// time (user + system, the command and its waited-for descendants): on a
// busy machine the CPU time moves less than the wall time.
//
// Usage:
//
//	timeit [-n 10] [-warmup 2] [-json] [-C DIR] [-stdin FILE] [-ok-exit 0] -- CMD ARGS...
//
// Each run reads FILE from its start as stdin (/dev/null without
// -stdin). The command's stdout is discarded and so is its stderr, except that the
// tail of stderr is shown when the command exits with a code that -ok-exit
// does not accept; timeit then stops and exits 1. Peak RSS is the
// ru_maxrss that wait4 reports for the child, which on Linux is in KiB and
// covers the child's waited-for descendants too (git runs git-yoimem as
// such a descendant).
//
// Text output is one line:
//
//	median_ms=12.345 min_ms=11.900 max_rss_kib=10234 runs=10 cpu_ms=9.870 minflt=812
//
// minflt is the median of the runs' minor page faults (the memory they
// touched; like the CPU time, steadier than the wall time).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type result struct {
	Command    []string  `json:"command"`
	Dir        string    `json:"dir,omitempty"`
	Runs       int       `json:"runs"`
	Warmup     int       `json:"warmup"`
	MedianMS   float64   `json:"median_ms"`
	MinMS      float64   `json:"min_ms"`
	MaxMS      float64   `json:"max_ms"`
	MeanMS     float64   `json:"mean_ms"`
	MaxRSSKiB  int64     `json:"max_rss_kib"`
	ExitCodes  []int     `json:"exit_codes"`
	WallTimeMS []float64 `json:"wall_ms"`
	CPUMS      float64   `json:"cpu_median_ms"`
	CPUTimeMS  []float64 `json:"cpu_ms"`
	// MinorFaults are each run's minor page faults (ru_minflt): the
	// memory a run touched, which the machine's load hardly moves.
	MinorFaults  []int64 `json:"minor_faults"`
	MinFltMedian int64   `json:"minor_faults_median"`
}

// usageError marks a bad command line (exit 2).
type usageError struct{ error }

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var ue usageError
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "timeit:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "timeit:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("timeit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10, "measured runs")
	warmup := fs.Int("warmup", 2, "unmeasured runs before the measured ones")
	asJSON := fs.Bool("json", false, "print a JSON object instead of one line")
	dir := fs.String("C", "", "run the command in `DIR`")
	okExit := fs.String("ok-exit", "0", "comma-separated exit codes that count as success")
	stdin := fs.String("stdin", "", "give each run `FILE` as stdin, read from its start")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: timeit [-n 10] [-warmup 2] [-json] [-C DIR] [-stdin FILE] [-ok-exit 0,1] -- CMD ARGS...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	cmdArgs := fs.Args()
	if len(cmdArgs) == 0 {
		fs.Usage()
		return usageError{errors.New("no command given")}
	}
	if *n < 1 || *warmup < 0 {
		return usageError{errors.New("-n must be at least 1 and -warmup at least 0")}
	}
	ok, err := parseCodes(*okExit)
	if err != nil {
		return usageError{err}
	}
	if *stdin != "" {
		f, err := os.Open(*stdin)
		if err != nil {
			return usageError{fmt.Errorf("-stdin: %w", err)}
		}
		f.Close()
	}

	// stderr goes to a temporary file rather than a pipe: no copying
	// goroutine, and its tail can be shown if the command fails.
	errFile, err := os.CreateTemp("", "timeit-stderr-*")
	if err != nil {
		return err
	}
	defer os.Remove(errFile.Name())
	defer errFile.Close()

	res := result{Command: cmdArgs, Dir: *dir, Runs: *n, Warmup: *warmup}
	for i := range *warmup + *n {
		wall, cpu, rss, minflt, code, err := once(cmdArgs, *dir, *stdin, errFile)
		if err != nil {
			return err
		}
		if !slices.Contains(ok, code) {
			what := "warmup run"
			if i >= *warmup {
				what = "run"
			}
			return fmt.Errorf("%s %d of %q: %s (accepted: %s)%s",
				what, i+1, strings.Join(cmdArgs, " "), describe(code), *okExit, tail(errFile))
		}
		if i < *warmup {
			continue
		}
		res.WallTimeMS = append(res.WallTimeMS, ms(wall))
		res.CPUTimeMS = append(res.CPUTimeMS, ms(cpu))
		res.MinorFaults = append(res.MinorFaults, minflt)
		res.ExitCodes = append(res.ExitCodes, code)
		res.MaxRSSKiB = max(res.MaxRSSKiB, rss)
	}
	res.MedianMS, res.MinMS, res.MaxMS, res.MeanMS = summarize(res.WallTimeMS)
	res.CPUMS, _, _, _ = summarize(res.CPUTimeMS)
	faults := make([]float64, len(res.MinorFaults))
	for i, f := range res.MinorFaults {
		faults[i] = float64(f)
	}
	med, _, _, _ := summarize(faults)
	res.MinFltMedian = int64(med)

	nonzero := 0
	for _, c := range res.ExitCodes {
		if c != 0 {
			nonzero++
		}
	}
	if nonzero > 0 {
		fmt.Fprintf(stderr, "timeit: note: %d of %d runs exited non-zero (accepted: %s): codes %v\n",
			nonzero, len(res.ExitCodes), *okExit, res.ExitCodes)
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	_, err = fmt.Fprintf(stdout, "median_ms=%.3f min_ms=%.3f max_rss_kib=%d runs=%d cpu_ms=%.3f minflt=%d\n",
		res.MedianMS, res.MinMS, res.MaxRSSKiB, res.Runs, res.CPUMS, res.MinFltMedian)
	return err
}

// once runs the command one time, with stdin, when not "", as its
// standard input (opened before the clock starts). minflt is its minor
// page faults; code is the exit code, or -1 when the command was killed
// by a signal.
func once(args []string, dir, stdin string, errFile *os.File) (wall, cpu time.Duration, rssKiB, minflt int64, code int, err error) {
	if err := errFile.Truncate(0); err != nil {
		return 0, 0, 0, 0, 0, err
	}
	if _, err := errFile.Seek(0, io.SeekStart); err != nil {
		return 0, 0, 0, 0, 0, err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stderr = errFile // stdout is /dev/null, and so is stdin without -stdin
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return 0, 0, 0, 0, 0, err
		}
		defer f.Close()
		cmd.Stdin = f // an *os.File: the child reads it directly, no copying goroutine
	}
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return 0, 0, 0, 0, 0, err // could not start
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rssKiB = int64(ru.Maxrss) // KiB on Linux
		minflt = int64(ru.Minflt)
	}
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return wall, cpu, rssKiB, minflt, cmd.ProcessState.ExitCode(), nil
}

func describe(code int) string {
	if code < 0 {
		return "killed by a signal"
	}
	return "exit status " + strconv.Itoa(code)
}

// tail returns the last lines of what the command wrote to stderr.
func tail(f *os.File) string {
	const max = 2048
	b, err := os.ReadFile(f.Name())
	if err != nil || len(b) == 0 {
		return ""
	}
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return "\nstderr (tail):\n" + strings.TrimRight(string(b), "\n")
}

func parseCodes(s string) ([]int, error) {
	var codes []int
	for _, f := range strings.Split(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 0 || c > 255 {
			return nil, fmt.Errorf("-ok-exit: bad exit code %q", f)
		}
		codes = append(codes, c)
	}
	return codes, nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// summarize returns the median (the mean of the two middle values for an
// even count), minimum, maximum and mean.
func summarize(v []float64) (median, lo, hi, mean float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	k := len(s)
	if k%2 == 1 {
		median = s[k/2]
	} else {
		median = (s[k/2-1] + s[k/2]) / 2
	}
	for _, x := range s {
		mean += x
	}
	return median, s[0], s[k-1], mean / float64(k)
}
