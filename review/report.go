package review

// Report is the review of one range. Paths are printed from the
// workspace root (".yoi/…").
type Report struct {
	Range   string    `json:"range"`
	Commits []Commit  `json:"commits"` // memory commits, oldest first
	Skipped []Skipped `json:"skipped"` // commits of the range that are not memory commits
}

// Skipped is a commit of the range left out of the review, and why.
type Skipped struct {
	Commit  string `json:"commit"`
	Subject string `json:"subject"`
	Why     string `json:"why"`
}

// Commit is the review of one memory commit.
type Commit struct {
	Commit       string      `json:"commit"`
	Date         string      `json:"date"`
	Subject      string      `json:"subject"`
	RunID        string      `json:"run_id"`
	Engine       string      `json:"engine"`
	Model        string      `json:"model,omitempty"`
	Groups       []Group     `json:"groups"`
	NewRecords   []string    `json:"new_records"`
	Losses       []Loss      `json:"possible_losses"`
	Protected    []Touched   `json:"protected_touched"`
	NewKnowledge []Knowledge `json:"new_knowledge"`
	Sessions     []string    `json:"sessions"`
	// Unrecovered says what the commit and its note do not hold.
	Unrecovered []string `json:"unrecovered"`
}

// Group is the operations of one category (outdated, superseded, unused,
// noisy) or, for operations without a category, of one kind (add,
// update, replace). An operation with several categories is listed under
// each.
type Group struct {
	Name string `json:"name"`
	Ops  []Op   `json:"ops"`
}

// Op is one operation as the commit message gives it.
type Op struct {
	Op     string `json:"op"`
	Path   string `json:"path"`
	Target string `json:"target,omitempty"`
	Reason string `json:"reason"`
}

// Loss is a record that may have lost information in the commit.
type Loss struct {
	Path        string   `json:"path"`
	Removed     bool     `json:"removed"` // the record is gone
	LostSources []string `json:"lost_sources"`
	BodyLines   int      `json:"body_lines"`    // non-blank body lines before
	RemovedLine int      `json:"removed_lines"` // of those, how many are gone
}

// Touched is a protected record an operation changed, with its usage.
type Touched struct {
	Path      string  `json:"path"`
	Op        string  `json:"op"`
	Uses      int     `json:"uses"`
	Frequency float64 `json:"frequency"` // invokes per million input tokens
	// Judged is when: "run" (the usage the run judged by, from its note)
	// or "now" (no note: judged at review time).
	Judged string `json:"judged"`
}

// Knowledge is a knowledge record the commit created.
type Knowledge struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Candidates are the knowledge-candidate report's records the run had;
	// the commit does not say which of them this record came from.
	Candidates []string `json:"candidates"`
}
