// Command gentranscript writes a large, realistic, deterministic Claude Code
// transcript for benchmarks (see package transcript for what is in it), or
// appends one more turn to one.
//
// Usage:
//
//	gentranscript -o FILE [-mb 50] [-tool-heavy] [-seed 1]
//	gentranscript -o FILE -append-turn [-seed 1]
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/yoimem/git-yoimem/bench/gentranscript/transcript"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "gentranscript:", err)
		os.Exit(2)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gentranscript", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (required)")
	mb := fs.Float64("mb", 50, "size of the transcript in MB (10^6 bytes)")
	heavy := fs.Bool("tool-heavy", false, "tool results make up at least 80% of the bytes, some up to 1 MiB")
	seed := fs.Uint64("seed", 1, "random seed; the same flags give byte-identical output")
	appendTurn := fs.Bool("append-turn", false, "append one user prompt and assistant answer to FILE instead")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gentranscript -o FILE [-mb 50] [-tool-heavy] [-seed 1]\n       gentranscript -o FILE -append-turn [-seed 1]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("-o FILE is required and no arguments are taken")
	}
	cfg := transcript.Config{Bytes: int64(*mb * 1e6), ToolHeavy: *heavy, Seed: *seed}
	if *appendTurn {
		return appendTo(*out, cfg, stderr)
	}
	return create(*out, cfg, stderr)
}

func create(path string, cfg transcript.Config, stderr io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	st, err := transcript.Write(f, cfg)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stderr, "%s: %d bytes, %d lines, tool results %.1f%% of bytes, %d API calls, %d input tokens\n",
		path, st.Bytes, st.Lines, 100*float64(st.ToolBytes)/float64(max(st.Bytes, 1)), st.Calls, st.InputTokens)
	return nil
}

func appendTo(path string, cfg transcript.Config, stderr io.Writer) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	parent, err := lastUUID(f, info.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	st, err := transcript.AppendTurn(f, cfg, info.Size(), parent)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: appended %d bytes, %d lines\n", path, st.Bytes, st.Lines)
	return nil
}

// lastUUID finds the uuid of the last line that has one, in the file's
// last 4 MiB.
func lastUUID(f *os.File, size int64) (string, error) {
	start := max(0, size-4<<20)
	tail := make([]byte, size-start)
	if _, err := f.ReadAt(tail, start); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	key := []byte(`"uuid":"`)
	i := bytes.LastIndex(tail, key)
	if i < 0 {
		return "", nil
	}
	rest := tail[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return "", nil
	}
	return string(rest[:j]), nil
}
