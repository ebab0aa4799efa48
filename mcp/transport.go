package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport serves MCP over a pair of streams (stdin and stdout):
// newline-delimited JSON-RPC 2.0, one message a line. It stands in front
// of the SDK so that no input ends the session: a line that is not a valid
// message is answered with a JSON-RPC error (-32700 parse error, -32600
// invalid request) and reading goes on; a line over MaxMessageBytes is
// skipped up to its newline, never held whole, and answered the same way.
// When input ends, every request already read is handled and answered
// before the session ends.
type Transport struct {
	In              io.Reader
	Out             io.Writer
	MaxMessageBytes int       // 0: DefaultMaxMessageBytes
	Log             io.Writer // optional: a line for each message ignored
}

// Connect implements sdk.Transport; call it once.
func (t *Transport) Connect(context.Context) (sdk.Connection, error) {
	c := &conn{
		out:      t.Out,
		log:      t.Log,
		incoming: make(chan jsonrpc.Message),
		done:     make(chan struct{}),
		settled:  make(chan struct{}, 1),
		pending:  map[jsonrpc.ID]bool{},
	}
	go c.readLoop(newLineReader(t.In, t.MaxMessageBytes))
	return c, nil
}

// conn is the sdk.Connection. One goroutine reads and checks lines and
// hands messages to Read; every write, the SDK's and our own error
// replies, goes out whole under one lock.
type conn struct {
	out     io.Writer
	log     io.Writer
	writeMu sync.Mutex

	incoming chan jsonrpc.Message // closed when reading ends, after readErr is set
	readErr  error
	done     chan struct{} // closed by Close
	once     sync.Once

	mu sync.Mutex
	// pending holds the ids of calls handed to the SDK and not yet
	// answered: true for those input's end waits for.
	pending map[jsonrpc.ID]bool
	settled chan struct{} // a pending call was answered
}

// openEnded are methods whose call lasts until the client cancels it or
// the session ends; input's end does not wait for them.
var openEnded = map[string]bool{"subscriptions/listen": true}

var errClosed = errors.New("mcp: connection closed")

// Read implements sdk.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, io.EOF
	case msg, ok := <-c.incoming:
		if !ok && c.readErr != nil {
			return nil, c.readErr
		}
		if !ok {
			return nil, io.EOF // closed while reading
		}
		return msg, nil
	}
}

// Write implements sdk.Connection: one message, one whole line. A
// response settles its call, even when the write fails (no one is left to
// answer).
func (c *conn) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, isResponse := msg.(*jsonrpc.Response)
	if isResponse {
		// before the write: once the client reads the answer it may reuse
		// the id (the SDK still waits for this write before it ends)
		c.settle(resp.ID)
		resp = withErrorCode(resp)
		msg = resp
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		if !isResponse {
			return err
		}
		// the client still gets an answer
		id, _ := json.Marshal(resp.ID.Raw())
		return c.answer(&rpcError{id: id, code: jsonrpc.CodeInternalError, msg: "internal error: " + err.Error()})
	}
	return c.writeLine(data)
}

// withErrorCode gives an error response the SDK left without a JSON-RPC
// code (code 0: a request out of turn in the session, such as tools/call
// before initialize or a second initialize, or params it could not
// decode) the code JSON-RPC has for it: -32602 for params, else -32600.
func withErrorCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var we *jsonrpc.Error
	if errors.As(resp.Error, &we) && we.Code != 0 {
		return resp
	}
	code := int64(jsonrpc.CodeInvalidRequest)
	if strings.Contains(resp.Error.Error(), "unmarshaling") {
		code = jsonrpc.CodeInvalidParams
	}
	out := *resp
	out.Error = &jsonrpc.Error{Code: code, Message: resp.Error.Error()}
	return &out
}

// Close implements sdk.Connection: Read returns io.EOF from now on. The
// input is not closed (a read from stdin cannot be interrupted); the
// reading goroutine ends with the process.
func (c *conn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

// SessionID implements sdk.Connection: stdio has no session id.
func (c *conn) SessionID() string { return "" }

// readLoop reads lines until input ends or the connection closes.
func (c *conn) readLoop(lr *lineReader) {
	defer close(c.incoming)
	for {
		line, err := lr.next()
		select {
		case <-c.done:
			return // closed while reading: answer nothing more
		default:
		}
		var long *tooLongError
		switch {
		case errors.As(err, &long):
			err = c.answer(&rpcError{id: nullID, code: jsonrpc.CodeInvalidRequest, msg: "invalid request: " + long.Error()})
		case err != nil:
			c.readErr = c.drain(err)
			return
		default:
			err = c.take(parseLine(line))
		}
		if err != nil {
			c.readErr = err
			return
		}
	}
}

// take answers, drops or hands on one checked line.
func (c *conn) take(v verdict) error {
	switch {
	case v.reply != nil:
		return c.answer(v.reply)
	case v.ignored != "":
		c.logf("ignored %s", v.ignored)
		return nil
	case v.msg == nil:
		return nil
	}
	if req, ok := v.msg.(*jsonrpc.Request); ok && req.IsCall() {
		if !c.track(req.ID, !openEnded[req.Method]) {
			id, _ := json.Marshal(req.ID.Raw())
			return c.answer(&rpcError{id: id, code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf("invalid request: id %s is already in use by a request in progress", id)})
		}
	}
	return c.deliver(v.msg)
}

// drain runs at input's end: it waits until every call read is answered
// and returns the end of input for Read. (The SDK then drops the
// notifications it has not handled yet; ours change nothing.)
func (c *conn) drain(end error) error {
	if err := c.waitSettled(); err != nil {
		return err
	}
	return end
}

func (c *conn) deliver(msg jsonrpc.Message) error {
	select {
	case c.incoming <- msg:
		return nil
	case <-c.done:
		return errClosed
	}
}

// track records a call in progress; false when its id already is.
func (c *conn) track(id jsonrpc.ID, awaited bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[id]; ok {
		return false
	}
	c.pending[id] = awaited
	return true
}

func (c *conn) settle(id jsonrpc.ID) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
	select {
	case c.settled <- struct{}{}:
	default:
	}
}

// waitSettled waits until no awaited call is pending.
func (c *conn) waitSettled() error {
	for {
		c.mu.Lock()
		n := 0
		for _, awaited := range c.pending {
			if awaited {
				n++
			}
		}
		c.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-c.settled:
		case <-c.done:
			return errClosed
		}
	}
}

// answer writes an error reply of our own.
func (c *conn) answer(e *rpcError) error {
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", e.id, jsonrpc.Error{Code: e.code, Message: e.msg}})
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// writeLine writes data and a newline in one write, so that lines never
// interleave.
func (c *conn) writeLine(data []byte) error {
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(line)
	return err
}

func (c *conn) logf(format string, args ...any) {
	if c.log != nil {
		fmt.Fprintf(c.log, "git-yoimem: mcp: "+format+"\n", args...)
	}
}
