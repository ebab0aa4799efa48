package mcp

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineReaderSplits(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		max   int
		lines []string // "!N" is a line refused as N bytes long
	}{
		{"lines", "a\nbc\n", 8, []string{"a", "bc"}},
		{"last line without newline", "a\nbc", 8, []string{"a", "bc"}},
		{"CRLF", "a\r\nbc\r\n", 8, []string{"a", "bc"}},
		{"empty lines", "\n\na\n", 8, []string{"", "", "a"}},
		{"at the limit", "12345678\n", 8, []string{"12345678"}},
		{"at the limit with CR", "12345678\r\n", 8, []string{"12345678"}},
		{"over the limit", "123456789\nok\n", 8, []string{"!9", "ok"}},
		{"over the limit at EOF", "ok\n123456789", 8, []string{"ok", "!9"}},
		{"over the limit, CRLF", "123456789\r\nok\n", 8, []string{"!9", "ok"}},
		{"empty", "", 8, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
				lr := newLineReader(r, c.max)
				var got []string
				for {
					line, err := lr.next()
					var long *tooLongError
					if errors.As(err, &long) {
						got = append(got, "!"+itoa(long.Size))
						continue
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, string(line))
				}
				if strings.Join(got, "|") != strings.Join(c.lines, "|") {
					t.Fatalf("lines %q, want %q", got, c.lines)
				}
			}
		})
	}
}

func itoa(n int64) string { return strings.ReplaceAll(commas(n), ",", "") }

// generator yields n bytes of 'a', then rest: a long line that exists
// nowhere in memory.
type generator struct {
	n    int64
	rest io.Reader
}

func (g *generator) Read(p []byte) (int, error) {
	if g.n == 0 {
		return g.rest.Read(p)
	}
	k := min(int64(len(p)), g.n)
	for i := range k {
		p[i] = 'a'
	}
	g.n -= k
	return int(k), nil
}

// A line over the limit is skipped without being kept: the reader's buffer
// never grows past the limit (and a CR LF), and reading a 64 MiB line allocates a small
// fraction of it.
func TestLineReaderBoundsALongLine(t *testing.T) {
	const limit = 1 << 20
	const size = 64 << 20
	lr := newLineReader(&generator{n: size, rest: strings.NewReader("\nok\n")}, limit)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := lr.next()
	runtime.ReadMemStats(&after)
	var long *tooLongError
	if !errors.As(err, &long) || long.Size != size || long.Max != limit {
		t.Fatalf("want a too-long error of %d bytes, got %v", size, err)
	}
	if lr.peak > limit+2 {
		t.Fatalf("buffer grew to %d bytes; the limit is %d", lr.peak, limit)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*limit {
		t.Fatalf("reading a %d-byte line allocated %d bytes", size, alloc)
	}
	if line, err := lr.next(); err != nil || string(line) != "ok" {
		t.Fatalf("the line after: %q %v", line, err)
	}
}

// The CR of a long line's CR LF may end one read and its LF begin the next.
func TestLineReaderLongLineCRLFAcrossReads(t *testing.T) {
	const n = 64<<10 - 1 // the CR is the last byte of the first buffer
	lr := newLineReader(&generator{n: n, rest: strings.NewReader("\r\nok\r\n")}, 1000)
	var long *tooLongError
	if _, err := lr.next(); !errors.As(err, &long) || long.Size != n {
		t.Fatalf("want a too-long error of %d bytes, got %v", n, err)
	}
	if line, err := lr.next(); err != nil || string(line) != "ok" {
		t.Fatalf("the line after: %q %v", line, err)
	}
}
