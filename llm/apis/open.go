// Package apis holds the llm providers built on the official SDKs:
// Anthropic Messages (anthropic.go) and OpenAI Chat Completions (openai.go,
// any compatible base URL). They live apart from package llm because the
// SDKs cost every process that links them start-up time and memory; only
// the git-yoimem-llm helper (and tests) import this package, and git-yoimem
// reaches it through llm's bridge. The providers follow llm's package doc:
// keys and base URLs from Options.Getenv, retries and timeouts from
// Options, errors as *llm.Error.
package apis

import (
	"encoding/json"
	"fmt"

	"github.com/yoimem/git-yoimem/llm"
)

// Open returns the provider of kind "anthropic" or "openai" for model,
// wrapped by llm.NewProvider (timeout, validation, repair). It fits
// llm.Options.APIs.
func Open(kind, model string, opts llm.Options) (llm.Provider, error) {
	var (
		b   llm.Backend
		err error
	)
	switch kind {
	case "anthropic":
		b, err = newAnthropic(model, opts)
	case "openai":
		b, err = newOpenAI(model, opts)
	default:
		return nil, fmt.Errorf("model %s:%s: unknown API %q; want anthropic or openai", kind, model, kind)
	}
	if err != nil {
		return nil, err
	}
	return llm.NewProvider(b, opts), nil
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// schemaObject decodes a JSON schema into a map, for the SDKs' params.
func schemaObject(raw json.RawMessage, what string) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: schema is not a JSON object: %w", what, err)
	}
	return m, nil
}
