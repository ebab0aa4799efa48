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
	// process environment itself.
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
	// HTTPClient, if set, sends the HTTP requests.
	HTTPClient *http.Client
	// Exec runs the command provider's command; nil: OSExec{}.
	Exec Execer
	// ReadFile reads the replay file; nil: os.ReadFile.
	ReadFile func(string) ([]byte, error)
}

func (o Options) getenv(key string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(key)
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

func (o Options) maxRetries() int {
	switch {
	case o.MaxRetries < 0:
		return 0
	case o.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return o.MaxRetries
}

// baseURL is Options.BaseURL, else the environment variable, else "".
func (o Options) baseURL(envKey string) string {
	if o.BaseURL != "" {
		return o.BaseURL
	}
	return o.getenv(envKey)
}

const modelForms = `"anthropic:<model>", "openai:<model>", "command:<argv>" or "replay:<file>"`

// Open returns the provider a model string names.
func Open(model string, opts Options) (Provider, error) {
	kind, rest, ok := strings.Cut(model, ":")
	rest = strings.TrimSpace(rest)
	if !ok || rest == "" {
		return nil, fmt.Errorf("model %q: want %s", model, modelForms)
	}
	var (
		b   backend
		err error
	)
	switch kind {
	case "anthropic":
		b, err = newAnthropic(rest, opts)
	case "openai":
		b, err = newOpenAI(rest, opts)
	case "command":
		b, err = newCommand(rest, opts)
	case "replay":
		b, err = newReplay(rest, opts)
	default:
		return nil, fmt.Errorf("model %q: unknown provider %q; want %s", model, kind, modelForms)
	}
	if err != nil {
		return nil, err
	}
	return &provider{b: b, timeout: opts.timeout()}, nil
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
