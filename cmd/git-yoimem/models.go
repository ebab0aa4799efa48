package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/llm"
)

// openModel opens a model string with the yoimem.llm.* settings.
func openModel(env Env, w *workspace, model string) (llm.Provider, error) {
	opts := llm.Options{
		APIHelper:  apiHelper(),
		Getenv:     env.Getenv,
		Timeout:    time.Duration(w.cfg.Int(config.KeyLLMTimeoutSeconds)) * time.Second,
		ReadFile:   os.ReadFile,
		Exec:       llm.OSExec{Dir: env.Dir, Env: environ(env)},
		MaxReply:   llm.Limit{Bytes: w.cfg.Int(config.KeyLLMMaxReplyBytes), Setting: config.KeyLLMMaxReplyBytes},
		MaxRequest: llm.Limit{Bytes: w.cfg.Int(config.KeyLLMMaxRequestBytes), Setting: config.KeyLLMMaxRequestBytes},
	}
	if r := w.cfg.Int(config.KeyLLMMaxRetries); r > 0 {
		opts.MaxRetries = int(r)
	} else {
		opts.MaxRetries = llm.NoRetries
	}
	switch {
	case strings.HasPrefix(model, "anthropic:"):
		opts.BaseURL = w.cfg.String(config.KeyLLMAnthropicBaseURL)
	case strings.HasPrefix(model, "openai:"):
		opts.BaseURL = w.cfg.String(config.KeyLLMOpenAIBaseURL)
	case strings.HasPrefix(model, "replay:"):
		if f := strings.TrimPrefix(model, "replay:"); f != "" && !filepath.IsAbs(f) {
			model = "replay:" + filepath.Join(env.Dir, f)
		}
	}
	return llm.Open(model, opts)
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

func environ(env Env) []string {
	if env.Environ == nil {
		return nil
	}
	return env.Environ()
}
