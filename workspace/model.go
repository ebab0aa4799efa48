package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/llm"
)

// ErrNoModel means no model is set for a job and none was given.
var ErrNoModel = errors.New("no model")

// ModelError is a model that could not be opened for the job its
// setting names (yoimem.extract.model, yoimem.consolidate.model).
type ModelError struct {
	Setting string
	Err     error
}

func (e *ModelError) Error() string {
	if errors.Is(e.Err, ErrNoModel) {
		return "no model for " + job(e.Setting)
	}
	return e.Setting + ": " + e.Err.Error()
}

func (e *ModelError) Unwrap() error { return e.Err }

// job is the section of a model setting: yoimem.extract.model is
// extract's.
func job(setting string) string {
	return strings.TrimSuffix(strings.TrimPrefix(setting, "yoimem."), ".model")
}

// Model is the model string for the job of setting: override (a --model
// flag) when given, else the setting's value; "" when neither is set.
func (w *Workspace) Model(setting, override string) string {
	if override != "" {
		return override
	}
	return w.Config.String(setting)
}

// OpenModelFor opens the model of a job (see Model) and returns it with
// its label as records name it (ModelLabel). No model is a *ModelError
// wrapping ErrNoModel.
func (w *Workspace) OpenModelFor(setting, override string) (llm.Provider, string, error) {
	model := w.Model(setting, override)
	if model == "" {
		return nil, "", &ModelError{Setting: setting, Err: ErrNoModel}
	}
	p, err := w.OpenModel(model)
	if err != nil {
		return nil, "", &ModelError{Setting: setting, Err: err}
	}
	return p, ModelLabel(model), nil
}

// OpenModel opens a model string with the yoimem.llm.* settings. A
// replay: file is taken from the working directory.
func (w *Workspace) OpenModel(model string) (llm.Provider, error) {
	cfg := w.Config
	opts := llm.Options{
		APIHelper:  apiHelper(),
		Getenv:     w.env.Getenv,
		Timeout:    time.Duration(cfg.Int(config.KeyLLMTimeoutSeconds)) * time.Second,
		ReadFile:   os.ReadFile,
		Exec:       llm.OSExec{Dir: w.env.Dir, Env: w.env.environ()},
		MaxReply:   llm.Limit{Bytes: cfg.Int(config.KeyLLMMaxReplyBytes), Setting: config.KeyLLMMaxReplyBytes},
		MaxRequest: llm.Limit{Bytes: cfg.Int(config.KeyLLMMaxRequestBytes), Setting: config.KeyLLMMaxRequestBytes},
	}
	if r := cfg.Int(config.KeyLLMMaxRetries); r > 0 {
		opts.MaxRetries = int(r)
	} else {
		opts.MaxRetries = llm.NoRetries
	}
	switch {
	case strings.HasPrefix(model, "anthropic:"):
		opts.BaseURL = cfg.String(config.KeyLLMAnthropicBaseURL)
	case strings.HasPrefix(model, "openai:"):
		opts.BaseURL = cfg.String(config.KeyLLMOpenAIBaseURL)
	case strings.HasPrefix(model, "replay:"):
		if f := strings.TrimPrefix(model, "replay:"); f != "" && !filepath.IsAbs(f) {
			model = "replay:" + filepath.Join(w.env.Dir, f)
		}
	}
	return llm.Open(model, opts)
}

// ModelLabel is a model string as staging files and commit trailers
// record it: the provider and model, without a replay file's or a
// command's directory (nothing of this machine's layout).
func ModelLabel(model string) string {
	kind, rest, _ := strings.Cut(model, ":")
	switch kind {
	case "replay":
		return kind + ":" + filepath.Base(rest)
	case "command":
		argv0, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
		return kind + ":" + filepath.Base(argv0)
	}
	return model
}

// apiHelper is git-yoimem-llm beside this executable (install.sh puts both
// in one directory), else "" for the bridge to find it on PATH.
func apiHelper() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), llm.DefaultAPIHelper)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return p
	}
	return ""
}
