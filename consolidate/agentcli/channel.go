package agentcli

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/internal/smallfile"
)

// The channel between a run and the MCP server its agent CLI starts
// (git yoimem mcp --run <run-id>): a unix socket the run listens on,
// found by the run's address file <runs>/<run-id>.addr, and a hello line
// that carries the run's token. The socket and the address file are the
// owner's only (0600, in a 0700 directory); the token, which only the
// agent CLI's environment and its MCP configuration hold, keeps out any
// other process of the same user. When the run ends, both files go:
// a server started after it is refused.

// EnvToken is the variable that hands the run's token to the server.
const EnvToken = "YOIMEM_RUN_TOKEN"

// maxSunPath is the longest socket path bound where it is put: sun_path
// is 108 bytes on Linux and 104 on the BSDs and macOS, with the NUL.
const maxSunPath = 103

// helloTimeout bounds the wait for a connection's hello line.
const helloTimeout = 10 * time.Second

// maxHello bounds a hello line.
const maxHello = 4096

// ErrNoRun: no run of that ID is in progress (it finished, or never
// started).
var ErrNoRun = errors.New("no consolidation run of that ID is in progress")

// ErrRefused: the run refused the connection (a wrong token, or another
// run's ID).
var ErrRefused = errors.New("the run refused the connection")

// CheckRunID refuses a run ID that could name a path outside the runs
// directory.
func CheckRunID(id string) error {
	if !validRunID(id) || strings.Contains(id, "..") {
		return fmt.Errorf("run ID %q: want letters, digits, '.', '_' and '-' (a UUID as consolidate prints it)", id)
	}
	return nil
}

// maxRunID bounds a run ID's length.
const maxRunID = 128

// validRunID: 1 to maxRunID ASCII letters, digits, '.', '_' and '-', the
// first a letter or digit. A loop, not a regexp: a package-level pattern
// with {0,127} cost every command's start-up 1,694 allocations.
func validRunID(id string) bool {
	if id == "" || len(id) > maxRunID || !alnum(id[0]) {
		return false
	}
	for i := 1; i < len(id); i++ {
		if c := id[i]; !alnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// alnum: an ASCII letter or digit.
func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// hello is the first line a server sends; answer the run's reply.
type hello struct {
	RunID string `json:"run_id"`
	Token string `json:"token"`
}

type answer struct {
	OK    bool   `json:"ok,omitempty"`
	Error string `json:"error,omitempty"`
}

// address is the content of <runs>/<run-id>.addr.
type address struct {
	Socket string `json:"socket"`
	PID    int    `json:"pid"`
}

// listener is a run's end of the channel.
type listener struct {
	ln       net.Listener
	runID    string
	token    string
	addrFile string
	socket   string
	tmpDir   string // the short-path fallback's directory, removed at the end

	mu     sync.Mutex
	conns  map[net.Conn]bool // open: closed with the listener
	closed bool
}

// listen opens the channel of run runID under dir (created 0700).
func listen(dir, runID string) (*listener, error) {
	if err := CheckRunID(runID); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the runs directory: %w", err)
	}
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("the run's token: %w", err)
	}
	l := &listener{runID: runID, token: hex.EncodeToString(tok), addrFile: filepath.Join(dir, runID+".addr")}
	l.socket = filepath.Join(dir, runID+".sock")
	if len(l.socket) > maxSunPath {
		tmp, err := os.MkdirTemp("", "yoimem-run-")
		if err != nil {
			return nil, fmt.Errorf("a short path for the run's socket (%s is %d bytes, over the socket path limit of %d): %w", l.socket, len(l.socket), maxSunPath, err)
		}
		l.tmpDir, l.socket = tmp, filepath.Join(tmp, "s")
	}
	_ = os.Remove(l.socket) // a dead run's with the same ID
	ln, err := net.Listen("unix", l.socket)
	if err != nil {
		l.removeFiles()
		return nil, fmt.Errorf("the run's socket %s: %w", l.socket, err)
	}
	l.ln = ln
	if err := os.Chmod(l.socket, 0o600); err != nil {
		l.close()
		return nil, fmt.Errorf("the run's socket %s: %w", l.socket, err)
	}
	b, _ := json.Marshal(address{Socket: l.socket, PID: os.Getpid()})
	if err := atomicfile.Replace(l.addrFile, append(b, '\n'), 0o600); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// serve accepts servers until the listener is closed: each one that says
// the run's ID and token is handed to handle, the others are refused.
func (l *listener) serve(ctx context.Context, handle func(context.Context, net.Conn)) {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return // closed
		}
		if !l.track(c) {
			c.Close()
			return
		}
		go func() {
			defer l.untrack(c)
			if l.admit(c) {
				handle(ctx, c)
			}
		}()
	}
}

func (l *listener) track(c net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	if l.conns == nil {
		l.conns = map[net.Conn]bool{}
	}
	l.conns[c] = true
	return true
}

func (l *listener) untrack(c net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.conns, c)
	c.Close()
}

// admit reads the hello line and answers it.
func (l *listener) admit(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(helloTimeout))
	line, err := readLine(c)
	_ = c.SetReadDeadline(time.Time{})
	var h hello
	var why string
	switch {
	case err != nil:
		why = "no hello line"
	case json.Unmarshal(line, &h) != nil:
		why = "the hello line is not JSON"
	case h.RunID != l.runID:
		why = fmt.Sprintf("this is run %s, not %s", l.runID, h.RunID)
	case subtle.ConstantTimeCompare([]byte(h.Token), []byte(l.token)) != 1:
		why = "wrong token (" + EnvToken + ")"
	}
	a := answer{OK: why == "", Error: why}
	b, _ := json.Marshal(a)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return false
	}
	return a.OK
}

// close stops accepting, closes the open connections and
// removes the files: a server started later finds no run.
func (l *listener) close() {
	l.mu.Lock()
	l.closed = true
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	if l.ln != nil {
		l.ln.Close()
	}
	l.removeFiles()
}

func (l *listener) removeFiles() {
	os.Remove(l.addrFile)
	os.Remove(l.socket)
	if l.tmpDir != "" {
		os.RemoveAll(l.tmpDir)
	}
}

// Attach connects to run runID's channel under dir with token: the
// connection then carries MCP to the run's server. No run of that ID is
// ErrNoRun; a refusal ErrRefused with the run's reason.
func Attach(ctx context.Context, dir, runID, token string) (net.Conn, error) {
	if err := CheckRunID(runID); err != nil {
		return nil, err
	}
	addrFile := filepath.Join(dir, runID+".addr")
	b, err := smallfile.Read(addrFile, maxAddrBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("run %s: %w (it finished, or never started)", runID, ErrNoRun)
	} else if err != nil {
		return nil, fmt.Errorf("run %s: %w", runID, err)
	}
	if token == "" {
		return nil, fmt.Errorf("run %s: %w: no token (%s is not set; the run sets it in its agent CLI's environment and MCP configuration)", runID, ErrRefused, EnvToken)
	}
	var a address
	if err := json.Unmarshal(b, &a); err != nil || a.Socket == "" {
		return nil, fmt.Errorf("run %s: %s is not a run's address", runID, addrFile)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", a.Socket)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w (its process %d is gone: %v)", runID, ErrNoRun, a.PID, err)
	}
	h, _ := json.Marshal(hello{RunID: runID, Token: token})
	if _, err := c.Write(append(h, '\n')); err != nil {
		c.Close()
		return nil, fmt.Errorf("run %s: %w", runID, err)
	}
	_ = c.SetReadDeadline(time.Now().Add(helloTimeout))
	line, err := readLine(c)
	_ = c.SetReadDeadline(time.Time{})
	var ans answer
	if err != nil || json.Unmarshal(line, &ans) != nil {
		c.Close()
		return nil, fmt.Errorf("run %s: %w: no answer to the hello line (the run ended?)", runID, ErrNoRun)
	}
	if !ans.OK {
		c.Close()
		return nil, fmt.Errorf("run %s: %w: %s", runID, ErrRefused, ans.Error)
	}
	return c, nil
}

// readLine reads one line byte by byte, so that nothing after it (the
// MCP stream) is read ahead.
func readLine(r io.Reader) ([]byte, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) < maxHello {
		if _, err := r.Read(b); err != nil {
			return nil, err
		}
		if b[0] == '\n' {
			return line, nil
		}
		line = append(line, b[0])
	}
	return nil, errors.New("answer too long")
}

// Relay carries the MCP stream between in/out (the agent CLI's pipes)
// and the run's connection c until the run closes it; when in ends, c's
// write side is closed and the run's last answers are still copied out.
func Relay(ctx context.Context, c net.Conn, in io.Reader, out io.Writer) error {
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, c)
		done <- err
	}()
	go func() {
		_, _ = io.Copy(c, in)
		if uc, ok := c.(*net.UnixConn); ok {
			_ = uc.CloseWrite()
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		c.Close()
		return ctx.Err()
	}
}

// maxAddrBytes bounds a run's address file (a socket path).
const maxAddrBytes = 64 << 10
