package config

import (
	"strings"
	"testing"
)

// The registry as specified; a change to Keys must be a change here too.
var wantKeys = []struct {
	name string
	typ  Type
	def  string
}{
	{"yoimem.branch", String, "yoimem/memory"},
	{"yoimem.baseBranch", String, ""},
	{"yoimem.remote", String, ""},
	{"yoimem.sync", Bool, "true"},
	{"yoimem.autoMerge", Bool, "false"},
	{"yoimem.extract.model", String, ""},
	{"yoimem.extract.tokenThreshold", Int, "1000000"},
	{"yoimem.consolidate.model", String, ""},
	{"yoimem.consolidate.stagingFiles", Int, "8"},
	{"yoimem.consolidate.stagingBytes", Size, "262144"},
	{"yoimem.consolidate.maxTurns", Int, "40"},
	{"yoimem.consolidate.locked", List, ""},
	{"yoimem.consolidate.budgetChars", Int, "60000"},
	{"yoimem.consolidate.commandTimeoutSeconds", Int, "1800"},
	{"yoimem.llm.anthropicBaseURL", String, ""},
	{"yoimem.llm.openaiBaseURL", String, ""},
	{"yoimem.llm.timeoutSeconds", Int, "300"},
	{"yoimem.llm.maxRetries", Int, "2"},
	{"yoimem.llm.maxReplyBytes", Size, "16777216"},
	{"yoimem.llm.maxRequestBytes", Size, "33554432"},
	{"yoimem.search.maxResults", Int, "20"},
	{"yoimem.search.excerptLines", Int, "2"},
	{"yoimem.context.budgetChars", Int, "24000"},
	{"yoimem.lint.maxFileBytes", Size, "1048576"},
	{"yoimem.lint.summaryChars", Int, "20000"},
	{"yoimem.lint.decisionChars", Int, "12000"},
	{"yoimem.lint.requestChars", Int, "12000"},
	{"yoimem.lint.knowledgeChars", Int, "16000"},
	{"yoimem.lint.descriptionChars", Int, "1024"},
	{"yoimem.lint.sourcesWarn", Int, "20"},
	{"yoimem.lint.lowImportanceTokens", Int, "1000"},
	{"yoimem.lint.lossRatio", Float, "0.5"},
	{"yoimem.lint.similarSlugs", Bool, "true"},
	{"yoimem.metrics.protectFrequency", Float, "1.0"},
	{"yoimem.metrics.window", Int, "10"},
	{"yoimem.metrics.candidateFrequency", Float, "2.0"},
	{"yoimem.metrics.candidateSessions", Int, "2"},
}

func TestKeys(t *testing.T) {
	keys := Keys()
	if len(keys) != len(wantKeys) {
		t.Fatalf("Keys() has %d keys, want %d", len(keys), len(wantKeys))
	}
	seen := map[string]bool{}
	for i, k := range keys {
		w := wantKeys[i]
		if k.Name != w.name || k.Type != w.typ || k.Default != w.def {
			t.Errorf("Keys()[%d] = %s %s %q, want %s %s %q", i, k.Name, k.Type, k.Default, w.name, w.typ, w.def)
		}
		if k.Doc == "" || strings.Contains(k.Doc, "\n") {
			t.Errorf("%s: doc %q is not one line", k.Name, k.Doc)
		}
		if err := checkName(k.Name); err != nil {
			t.Errorf("%s: %v", k.Name, err)
		}
		if seen[strings.ToLower(k.Name)] {
			t.Errorf("%s: duplicate", k.Name)
		}
		seen[strings.ToLower(k.Name)] = true
		if _, err := parseValue(k, Entry{Name: k.Name, Value: k.Default}); err != nil {
			t.Errorf("default of %s is invalid: %v", k.Name, err)
		}
	}
}

func TestKeysIsFresh(t *testing.T) {
	a := Keys()
	a[0].Name, a[0].Default = "changed", "changed"
	if b := Keys(); b[0].Name != KeyBranch || b[0].Default != "yoimem/memory" {
		t.Errorf("changing the result of Keys changed the registry: %+v", b[0])
	}
}

func TestKeyNameConstants(t *testing.T) {
	consts := []string{
		KeyBranch, KeyBaseBranch, KeyRemote, KeySync, KeyAutoMerge, KeyExtractModel, KeyExtractTokenThreshold,
		KeyConsolidateModel, KeyConsolidateStagingFiles, KeyConsolidateStagingBytes, KeyConsolidateMaxTurns, KeyConsolidateLocked, KeyConsolidateBudgetChars,
		KeyConsolidateCommandTimeout,
		KeyLLMAnthropicBaseURL, KeyLLMOpenAIBaseURL, KeyLLMTimeoutSeconds, KeyLLMMaxRetries,
		KeyLLMMaxReplyBytes, KeyLLMMaxRequestBytes,
		KeySearchMaxResults, KeySearchExcerptLines, KeyContextBudgetChars,
		KeyLintMaxFileBytes, KeyLintSummaryChars, KeyLintDecisionChars, KeyLintRequestChars,
		KeyLintKnowledgeChars, KeyLintDescriptionChars, KeyLintSourcesWarn, KeyLintLowImportanceTokens,
		KeyLintLossRatio, KeyLintSimilarSlugs,
		KeyMetricsProtectFrequency, KeyMetricsWindow, KeyMetricsCandidateFrequency, KeyMetricsCandidateSessions,
	}
	if len(consts) != len(Keys()) {
		t.Fatalf("%d constants for %d keys", len(consts), len(Keys()))
	}
	for i, k := range Keys() {
		if consts[i] != k.Name {
			t.Errorf("constant %d = %q, want %q", i, consts[i], k.Name)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		want string // canonical name, "" for not found
	}{
		{"yoimem.search.maxResults", "yoimem.search.maxResults"},
		{"yoimem.search.maxresults", "yoimem.search.maxResults"},
		{"YOIMEM.search.MAXRESULTS", "yoimem.search.maxResults"},
		{"yoimem.BRANCH", "yoimem.branch"},
		{"Yoimem.baseBranch", "yoimem.baseBranch"},
		{"yoimem.Search.maxResults", ""}, // subsections are case-sensitive
		{"yoimem.SEARCH.maxResults", ""},
		{"yoimem.search.maxResults.x", ""},
		{"yoimem.maxResults", ""},
		{"yoimem.extract.branch", ""},
		{"yoimem..branch", ""},
		{"yoimem.", ""},
		{".branch", ""},
		{"yoimem", ""},
		{"", ""},
		{"core.branch", ""},
	}
	for _, tt := range tests {
		k, ok := Lookup(tt.name)
		if ok != (tt.want != "") || k.Name != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.name, k.Name, ok, tt.want)
		}
	}
}

func TestTypeString(t *testing.T) {
	for typ, want := range map[Type]string{String: "string", Int: "int", Size: "size", Float: "float", Bool: "bool", List: "list", Type(99): "unknown"} {
		if got := typ.String(); got != want {
			t.Errorf("Type(%d).String() = %q, want %q", int(typ), got, want)
		}
	}
	for kind, want := range map[OriginKind]string{Default: "default", File: "file", Git: "git", Flag: "flag", OriginKind(99): "unknown"} {
		if got := kind.String(); got != want {
			t.Errorf("OriginKind(%d).String() = %q, want %q", int(kind), got, want)
		}
	}
}
