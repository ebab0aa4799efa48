package config

import "strings"

// FilePath is the path of the committed configuration file, relative to the
// root of the work tree.
const FilePath = ".yoi/config"

// Type is the type of a key's value.
type Type int

// The types of values.
const (
	String Type = iota // any text
	Int                // whole number >= 0, optional k/m/g suffix (base 1024)
	Size               // byte count, parsed like Int
	Float              // number >= 0
	Bool               // true/false, yes/no, on/off, 1/0
	List               // one item a setting, as git's multi-valued keys; an empty value clears the list
)

// String returns the name of the type: "string", "int", "size", "float",
// "bool" or "list".
func (t Type) String() string {
	switch t {
	case String:
		return "string"
	case Int:
		return "int"
	case Size:
		return "size"
	case Float:
		return "float"
	case Bool:
		return "bool"
	case List:
		return "list"
	}
	return "unknown"
}

// Key describes one known setting.
type Key struct {
	Name    string // canonical name, e.g. "yoimem.search.maxResults"
	Type    Type   // type of the value
	Default string // built-in default in the syntax of the files
	Doc     string // one-line description
}

// Names of the known keys, for use with [Config.Get] and the typed getters.
const (
	KeyBranch                    = "yoimem.branch"
	KeyBaseBranch                = "yoimem.baseBranch"
	KeyAutoMerge                 = "yoimem.autoMerge"
	KeyRemote                    = "yoimem.remote"
	KeySync                      = "yoimem.sync"
	KeyExtractModel              = "yoimem.extract.model"
	KeyExtractTokenThreshold     = "yoimem.extract.tokenThreshold"
	KeyConsolidateModel          = "yoimem.consolidate.model"
	KeyConsolidateStagingFiles   = "yoimem.consolidate.stagingFiles"
	KeyConsolidateStagingBytes   = "yoimem.consolidate.stagingBytes"
	KeyConsolidateMaxTurns       = "yoimem.consolidate.maxTurns"
	KeyConsolidateLocked         = "yoimem.consolidate.locked"
	KeyConsolidateBudgetChars    = "yoimem.consolidate.budgetChars"
	KeyConsolidateCommandTimeout = "yoimem.consolidate.commandTimeoutSeconds"
	KeyLLMAnthropicBaseURL       = "yoimem.llm.anthropicBaseURL"
	KeyLLMOpenAIBaseURL          = "yoimem.llm.openaiBaseURL"
	KeyLLMTimeoutSeconds         = "yoimem.llm.timeoutSeconds"
	KeyLLMMaxRetries             = "yoimem.llm.maxRetries"
	KeyLLMMaxReplyBytes          = "yoimem.llm.maxReplyBytes"
	KeyLLMMaxRequestBytes        = "yoimem.llm.maxRequestBytes"
	KeySearchMaxResults          = "yoimem.search.maxResults"
	KeySearchExcerptLines        = "yoimem.search.excerptLines"
	KeyContextBudgetChars        = "yoimem.context.budgetChars"
	KeyLintMaxFileBytes          = "yoimem.lint.maxFileBytes"
	KeyLintSummaryChars          = "yoimem.lint.summaryChars"
	KeyLintDecisionChars         = "yoimem.lint.decisionChars"
	KeyLintRequestChars          = "yoimem.lint.requestChars"
	KeyLintKnowledgeChars        = "yoimem.lint.knowledgeChars"
	KeyLintDescriptionChars      = "yoimem.lint.descriptionChars"
	KeyLintSourcesWarn           = "yoimem.lint.sourcesWarn"
	KeyLintLowImportanceTokens   = "yoimem.lint.lowImportanceTokens"
	KeyLintLossRatio             = "yoimem.lint.lossRatio"
	KeyLintSimilarSlugs          = "yoimem.lint.similarSlugs"
	KeyMetricsProtectFrequency   = "yoimem.metrics.protectFrequency"
	KeyMetricsWindow             = "yoimem.metrics.window"
	KeyMetricsCandidateFrequency = "yoimem.metrics.candidateFrequency"
	KeyMetricsCandidateSessions  = "yoimem.metrics.candidateSessions"
)

// Keys returns the registry of known keys in a fixed order, grouped by
// section. The slice is new on every call and may be modified by the caller.
func Keys() []Key {
	return []Key{
		{KeyBranch, String, "yoimem/memory", "memory branch that consolidation commits to"},
		{KeyBaseBranch, String, "", "branch the memory branch is built on; empty means the repository's default branch"},
		{KeyRemote, String, "", "remote the memory branch and its notes are shared through (docs/sync.md); empty means the base branch's remote, else origin, else the only remote"},
		{KeySync, Bool, "true", "consolidation first fetches the remote's memory branch and brings it in (when there is a remote); it asks for no credentials (a credential helper must answer); a failed fetch warns and the run goes on with the local memory"},
		{KeyAutoMerge, Bool, "false", "after a consolidation that commits, merge the memory branch into the current branch when .yoi/ is clean and the merge only brings .yoi/ forward (for one person working alone)"},
		{KeyExtractModel, String, "", "model string for extract, e.g. anthropic:claude-haiku-4-5"},
		{KeyExtractTokenThreshold, Int, "1000000", "input tokens of a session's API calls since the pointer that trigger extract"},
		{KeyConsolidateModel, String, "", "model string for consolidation; empty means the rules engine"},
		{KeyConsolidateStagingFiles, Int, "8", "staging file count that triggers consolidation"},
		{KeyConsolidateStagingBytes, Size, "262144", "staging bytes that trigger consolidation"},
		{KeyConsolidateMaxTurns, Int, "40", "turn limit of the consolidation agent"},
		{KeyConsolidateLocked, List, "", "records consolidation may not change, as the owner's read-only bit does: a path or pattern under .yoi/ a line (knowledge/retry.md, memory/decisions/db-*.md); an empty value clears the list"},
		{KeyConsolidateBudgetChars, Int, "60000", "characters of the consolidation agent's first message (staging entries, the memory records or their index, tidy-up material), and of each tool result"},
		{KeyConsolidateCommandTimeout, Int, "1800", "seconds a command: consolidation model (an agent CLI such as claude -p or codex exec) may run; at the deadline its process group is killed and nothing is committed"},
		{KeyLLMAnthropicBaseURL, String, "", "base URL of the Anthropic API; empty: ANTHROPIC_BASE_URL, else the SDK's default"},
		{KeyLLMOpenAIBaseURL, String, "", "base URL of an OpenAI-compatible API (Ollama, vLLM, llama.cpp, LM Studio); empty: OPENAI_BASE_URL, else OpenAI's"},
		{KeyLLMTimeoutSeconds, Int, "300", "seconds one model request may take, retries included"},
		{KeyLLMMaxRetries, Int, "2", "retries of a model request on 408, 409, 429, 5xx and connection errors (0: none)"},
		{KeyLLMMaxReplyBytes, Size, "16777216", "largest model reply read (a command model's stdout, an API response body); a larger one fails the call"},
		{KeyLLMMaxRequestBytes, Size, "33554432", "largest model request sent; a larger one fails as too long for the model (extract splits it)"},
		{KeySearchMaxResults, Int, "20", "hit limit of knowledge_search / memory_search"},
		{KeySearchExcerptLines, Int, "2", "lines of context around each match in an excerpt"},
		{KeyContextBudgetChars, Int, "24000", "budget of the always-on context"},
		{KeyLintMaxFileBytes, Size, "1048576", "files larger than this are refused whole, with their size: a lint error, and an error of every command or tool that would read one (never its first bytes); also the most memory write takes on stdin; 0: no limit"},
		{KeyLintSummaryChars, Int, "20000", "character hard cap of memory/summary.md"},
		{KeyLintDecisionChars, Int, "12000", "character hard cap of a decision"},
		{KeyLintRequestChars, Int, "12000", "character hard cap of a request"},
		{KeyLintKnowledgeChars, Int, "16000", "character hard cap of a knowledge record"},
		{KeyLintDescriptionChars, Int, "1024", "description cap when model_invokation is true"},
		{KeyLintSourcesWarn, Int, "20", "warn when sources has more entries than this"},
		{KeyLintLowImportanceTokens, Int, "1000", "warn when a rarely used or unused record is larger than this, in estimated tokens"},
		{KeyLintLossRatio, Float, "0.5", "warn when a rewrite removes more than this share of the previous text"},
		{KeyLintSimilarSlugs, Bool, "true", "warn about clusters of similar slugs"},
		{KeyMetricsProtectFrequency, Float, "1.0", "invokes per million input tokens at or above which a record is protected"},
		{KeyMetricsWindow, Int, "10", "invokes in the frequency window; a record with no invoke over window x 1,000,000 / protectFrequency input tokens is unused"},
		{KeyMetricsCandidateFrequency, Float, "2.0", "invokes per million tokens for the knowledge-candidate report"},
		{KeyMetricsCandidateSessions, Int, "2", "distinct sessions required for the candidate report"},
	}
}

// Lookup finds the known key that name refers to, following git's rules:
// the section and the last part are compared case-insensitively, the
// subsection between them exactly.
func Lookup(name string) (Key, bool) {
	if i := index(name); i >= 0 {
		return Keys()[i], true
	}
	return Key{}, false
}

// index returns the position of name's key in Keys, or -1.
func index(name string) int {
	sec, sub, key, ok := splitName(name)
	if !ok {
		return -1
	}
	for i, k := range Keys() {
		ksec, ksub, kkey, _ := splitName(k.Name)
		if strings.EqualFold(sec, ksec) && sub == ksub && strings.EqualFold(key, kkey) {
			return i
		}
	}
	return -1
}

// splitName splits "section.sub.section.key" at its first and last dot.
// The subsection may itself contain dots, as in git.
func splitName(name string) (section, subsection, key string, ok bool) {
	first := strings.IndexByte(name, '.')
	last := strings.LastIndexByte(name, '.')
	if first <= 0 || last == len(name)-1 {
		return "", "", "", false
	}
	section, key = name[:first], name[last+1:]
	if last > first {
		subsection = name[first+1 : last]
		if subsection == "" {
			return "", "", "", false
		}
	}
	return section, subsection, key, true
}

// isYoimem reports whether name is in git yoimem's section.
func isYoimem(name string) bool {
	sec, _, _, ok := splitName(name)
	return ok && strings.EqualFold(sec, "yoimem")
}
