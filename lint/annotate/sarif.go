package annotate

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
)

// SARIF's version and its schema's address (written, never fetched).
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// SrcRoot is the uriBaseId of every location: the repository's root, as
// code scanning resolves it.
const SrcRoot = "%SRCROOT%"

// Log is a SARIF log with one run; only the properties written are
// declared, named as SARIF names them.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one tool's run: the tool and its results.
type Run struct {
	Tool    Tool     `json:"tool"`
	Results []Result `json:"results"`
}

// Tool names the linter and its rules.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the linter: name, version and every rule it has.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is one rule: its id, summary and severity.
type Rule struct {
	ID                   string        `json:"id"`
	ShortDescription     Message       `json:"shortDescription"`
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
}

// Configuration carries a rule's default level.
type Configuration struct {
	Level string `json:"level"`
}

// Message is SARIF's text object.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     string     `json:"level"`
	Message   Message    `json:"message"`
	Locations []Location `json:"locations"`
}

// Location is where a finding is.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and, when the finding has one, a position.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file's URI relative to UriBaseID.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

// Region is a position; SARIF's lines and columns start at 1.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// ToolInfo identifies the program in a SARIF log.
type ToolInfo struct {
	Name, Version, InformationURI string
}

// NewSARIF builds the log of findings: the driver lists rules (every rule
// of the linter's registry), each result names its rule by id and index.
// A finding whose rule is not in rules is still reported: its rule is
// added to the driver's list, so that every ruleIndex is valid.
func NewSARIF(tool ToolInfo, rules []lint.RuleInfo, findings []lint.Finding, path func(lint.Finding) string) Log {
	d := Driver{Name: tool.Name, Version: tool.Version, InformationURI: tool.InformationURI, Rules: make([]Rule, 0, len(rules))}
	index := map[string]int{}
	addRule := func(id, summary string, s lint.Severity) {
		index[id] = len(d.Rules)
		d.Rules = append(d.Rules, Rule{ID: id, ShortDescription: Message{summary}, DefaultConfiguration: Configuration{s.String()}})
	}
	for _, r := range rules {
		addRule(r.ID, r.Summary, r.Severity)
	}
	results := make([]Result, 0, len(findings))
	for _, f := range findings {
		i, ok := index[f.Rule]
		if !ok {
			addRule(f.Rule, f.Rule, f.Severity)
			i = index[f.Rule]
		}
		loc := PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: uriPath(path(f)), URIBaseID: SrcRoot}}
		if f.Line > 0 {
			loc.Region = &Region{StartLine: f.Line, StartColumn: max(f.Col, 0)}
		}
		results = append(results, Result{RuleID: f.Rule, RuleIndex: i, Level: f.Severity.String(),
			Message: Message{f.Message}, Locations: []Location{{loc}}})
	}
	return Log{Schema: SARIFSchema, Version: SARIFVersion, Runs: []Run{{Tool: Tool{d}, Results: results}}}
}

// SARIF writes the log of findings as indented JSON (NewSARIF).
func SARIF(w io.Writer, tool ToolInfo, rules []lint.RuleInfo, findings []lint.Finding, path func(lint.Finding) string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewSARIF(tool, rules, findings, path))
}

// uriPath makes a slash-separated relative path a relative URI reference:
// spaces, '%', '#', '?' and non-ASCII escaped, and a first segment with a
// ':' kept from reading as a scheme.
func uriPath(p string) string {
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, ":") {
		p = "./" + p
	}
	return (&url.URL{Path: p}).EscapedPath()
}
