package doctor

import (
	"context"
	"fmt"

	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/llm"
)

// apiModel is what an API model needs: its key variable and the base
// URL setting and variable with which a local server needs no key (as
// the bridge checks before it runs the helper).
var apiModels = []struct{ prefix, key, baseEnv, baseSetting string }{
	{"anthropic:", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", config.KeyLLMAnthropicBaseURL},
	{"openai:", "OPENAI_API_KEY", "OPENAI_BASE_URL", config.KeyLLMOpenAIBaseURL},
}

// exampleModel is what the fix for a missing extract model suggests.
const exampleModel = "anthropic:claude-haiku-4-5"

func checkModels(_ context.Context, in Input, r *Report) error {
	needHelper := false
	for _, setting := range []string{config.KeyExtractModel, config.KeyConsolidateModel} {
		m := model(in, setting)
		r.Models = append(r.Models, m)
		job := strings.TrimSuffix(strings.TrimPrefix(setting, "yoimem."), ".model")
		name := job + " model"
		switch {
		case m.Model == "" && setting == config.KeyConsolidateModel:
			r.ok(name, "not set: the rules engine consolidates (no model)")
		case m.Model == "":
			r.problem(name, "not set ("+setting+"): sessions are not extracted into staging",
				fmt.Sprintf("git config %s %s (and export ANTHROPIC_API_KEY=…)", setting, exampleModel))
		case llm.CheckModel(m.Model) != nil:
			r.problem(name, llm.CheckModel(m.Model).Error()+" ("+setting+")",
				fmt.Sprintf("git config %s %s", setting, exampleModel))
		case m.KeyVariable != "" && !m.KeySet && !m.BaseURL:
			needHelper = true
			r.problem(name, fmt.Sprintf("%s, but %s is not set in this environment", m.Model, m.KeyVariable),
				"export "+m.KeyVariable+"=…")
		case m.KeyVariable != "":
			needHelper = true
			how := m.KeyVariable + " is set"
			if !m.KeySet {
				how = "a base URL is configured"
			}
			r.ok(name, m.Model+" ("+how+")")
		default:
			r.ok(name, m.Model)
		}
	}
	checkHelper(in, r, needHelper)
	return nil
}

func model(in Input, setting string) Model {
	m := Model{Setting: setting, Model: in.W.Config.String(setting)}
	for _, a := range apiModels {
		if strings.HasPrefix(m.Model, a.prefix) {
			m.KeyVariable = a.key
			m.KeySet = getenv(in, a.key) != ""
			m.BaseURL = getenv(in, a.baseEnv) != "" || in.W.Config.String(a.baseSetting) != ""
		}
	}
	return m
}

func getenv(in Input, k string) string {
	if in.Getenv == nil {
		return ""
	}
	return in.Getenv(k)
}

// checkHelper looks for git-yoimem-llm where the bridge runs it from:
// beside this executable, else on PATH.
func checkHelper(in Input, r *Report, needed bool) {
	h := Helper{Name: llm.DefaultAPIHelper, Needed: needed}
	if in.Executable != "" {
		if p := filepath.Join(filepath.Dir(in.Executable), h.Name); executable(p) {
			h.Path, h.Found = p, true
		}
	}
	if !h.Found {
		for _, d := range filepath.SplitList(getenv(in, "PATH")) {
			if p := filepath.Join(d, h.Name); d != "" && filepath.IsAbs(d) && executable(p) {
				h.Path, h.Found = p, true
				break
			}
		}
	}
	r.Helper = h
	switch {
	case h.Found:
		r.ok("helper", h.Name+" found: "+h.Path)
	case needed:
		r.problem("helper", h.Name+", which makes the API calls, is neither beside git-yoimem nor on PATH",
			"install it beside git-yoimem (install.sh builds both)")
	default:
		r.ok("helper", h.Name+" not found; not needed (no API model is configured)")
	}
}
