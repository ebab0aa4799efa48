package llm

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// Default option values.
const (
	DefaultTimeout    = 300 * time.Second
	DefaultMaxRetries = 2
	// NoRetries as Options.MaxRetries turns the SDKs' retries off.
	NoRetries = -1
)

// Options configure a provider. The zero value works, except that no
// environment variable is visible without Getenv.
type Options struct {
	// Getenv reads ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY and
	// OPENAI_BASE_URL; nil reads nothing. The package never reads the
	// process environment itself. (Through the bridge, the helper reads the
	// keys from the environment Exec gives it.)
	Getenv func(string) string
	// BaseURL overrides the provider's base URL and its *_BASE_URL variable
	// (openai: include the /v1 of OpenAI-compatible servers).
	BaseURL string
	// Timeout bounds each request, the SDK's retries included (a repair
	// attempt is a second request). 0: DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is the SDKs' retries on 408, 409, 429, 5xx and connection
	// errors. 0: DefaultMaxRetries; NoRetries (or any negative): none.
	MaxRetries int
	// HTTPClient, if set, sends the HTTP requests of in-process API
	// providers (with APIs); the bridge does not carry it.
	HTTPClient *http.Client
	// Exec runs the command provider's command and the API helper; nil:
	// OSExec{}.
	Exec Execer
	// ReadFile reads the replay file; nil: os.ReadFile.
	ReadFile func(string) ([]byte, error)
	// APIs, if set, opens "anthropic:" and "openai:" models in this process
	// (kind "anthropic" or "openai"; apis.Open). Nil: they run through the
	// bridge to the APIHelper process.
	APIs func(kind, model string, opts Options) (Provider, error)
	// APIHelper is the helper program the bridge runs; "": DefaultAPIHelper,
	// looked up on PATH.
	APIHelper string
	// MaxReply bounds every reply read: a command model's stdout, an API
	// response body, the helper's answer. Past it the reply is not read
	// on (the command is killed, the connection closed) and the call
	// fails with ErrTooLarge naming the limit and its setting. Bytes 0:
	// DefaultMaxReplyBytes.
	MaxReply Limit
	// MaxRequest bounds a request (its JSON form): a larger one fails with
	// ErrContextLength before it is sent. Bytes 0: DefaultMaxRequestBytes.
	MaxRequest Limit
}

// Env reads an environment variable through Getenv; "" without Getenv.
func (o Options) Env(key string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(key)
}

// RequestTimeout is Timeout, or DefaultTimeout when it is not positive.
func (o Options) RequestTimeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// Retries is the number of retries MaxRetries asks for: DefaultMaxRetries
// for 0, none for a negative value.
func (o Options) Retries() int {
	switch {
	case o.MaxRetries < 0:
		return 0
	case o.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return o.MaxRetries
}

// BaseURLOr is BaseURL, else the environment variable envKey (through
// Getenv), else "".
func (o Options) BaseURLOr(envKey string) string {
	if o.BaseURL != "" {
		return o.BaseURL
	}
	return o.Env(envKey)
}

const modelForms = `"anthropic:<model>", "openai:<model>", "command:<argv>" or "replay:<file>"`

// Open returns the provider a model string names. Anthropic and OpenAI
// models go to Options.APIs when set, else to the bridge.
func Open(model string, opts Options) (Provider, error) {
	if err := CheckModel(model); err != nil {
		return nil, err
	}
	kind, rest, _ := strings.Cut(model, ":")
	rest = strings.TrimSpace(rest)
	var (
		b   Backend
		err error
	)
	switch kind {
	case "anthropic", "openai":
		if opts.APIs != nil {
			return opts.APIs(kind, rest, opts)
		}
		return newBridge(kind, rest, opts)
	case "command":
		b, err = newCommand(rest, opts)
	case "replay":
		b, err = newReplay(rest, opts)
	}
	if err != nil {
		return nil, err
	}
	return NewProvider(b, opts), nil
}

// CheckModel tells whether a model string has one of the forms Open
// takes (a known provider and something after it; a command that
// splits into words), without opening anything: what 'git yoimem
// doctor' checks.
func CheckModel(model string) error {
	kind, rest, ok := strings.Cut(model, ":")
	rest = strings.TrimSpace(rest)
	if !ok || rest == "" {
		return fmt.Errorf("model %q: want %s", model, modelForms)
	}
	switch kind {
	case "anthropic", "openai", "replay":
		return nil
	case "command":
		if _, err := splitArgv(rest); err != nil {
			return fmt.Errorf("model %q: %w", model, err)
		}
		return nil
	}
	return fmt.Errorf("model %q: unknown provider %q; want %s", model, kind, modelForms)
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func readFileOr(f func(string) ([]byte, error)) func(string) ([]byte, error) {
	if f == nil {
		return os.ReadFile
	}
	return f
}
