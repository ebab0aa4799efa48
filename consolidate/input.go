package consolidate

import (
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Input is everything one run works from, fixed when it starts.
type Input struct {
	RunID string
	Now   time.Time // the run's clock: created_at and updated_at of what it writes

	// Base is .yoi/ in the tree the commit will be written on (the
	// unmerged memory tip, else the base branch tip), .yoi/-relative;
	// never the working tree.
	Base record.Snapshot
	// BaseCommit is that commit: the memory commit is written on it or
	// not at all ("" when the repository has none yet).
	BaseCommit string

	// Entries are the consumed staging entries, in ID (time) order.
	Entries []extract.Staging

	// Usage is what usage metrics say of each record at the start, by
	// .yoi/-relative path. A record without an entry counts as unknown:
	// never dropped.
	Usage map[string]RecordUsage

	// Candidates are the .yoi/-relative paths of the records in the
	// knowledge-candidate report: the only records a new knowledge
	// record may be derived from.
	Candidates []string

	// Locked are .yoi/-relative paths no run may change: read-only in the
	// working tree (the owner's lock) or listed in .yoi/config.
	Locked map[string]bool
	// LockPatterns are the configured locks (yoimem.consolidate.locked),
	// .yoi/-relative paths or path.Match patterns; one that matches a
	// directory locks what is under it. A matching path is locked whether
	// its record exists or not.
	LockPatterns []string

	Lint   lint.Options
	Policy Policy

	// Hooks are seams for progress and tests, not data of the run.
	Hooks Hooks
}

// Hooks are called as a run goes; a nil hook is skipped.
type Hooks struct {
	// Applied is called after each change a session accepts: the
	// engine's progress (the agent's tool loop is under way).
	Applied func(memlog.Op)
	// Stage is called between the stages of a run.
	Stage func(Stage)
}

// Stage is a point between two steps of a run (docs/consolidate.md,
// "Crash safety"): what is durable when a run stops there.
type Stage string

// The stages, in order.
const (
	StageLocked    Stage = "locked"    // the lock is taken; nothing read
	StageInput     Stage = "input"     // the input is read
	StageLinted    Stage = "linted"    // the plan is made and linted; nothing written
	StagePrepared  Stage = "prepared"  // the lock records the note and metrics; nothing committed
	StageCommitted Stage = "committed" // the memory commit is made; no note, staging kept
	StageNoted     Stage = "noted"     // the note is written; staging kept
	StageCleaned   Stage = "cleaned"   // the consumed staging is removed; the lock is held
)

func (h Hooks) stage(s Stage) {
	if h.Stage != nil {
		h.Stage(s)
	}
}

// RecordUsage is one record's usage at the start of a run.
type RecordUsage struct {
	Uses      int     // explicit invokes counted
	Frequency float64 // invokes per million input tokens, when Known
	// Known: the token ledger has counted tokens over the record's window
	// (since its oldest counted invoke, or over the whole window for a
	// record never invoked). Unknown usage is never a reason to drop.
	Known     bool
	Unused    bool // Known, and no invoke over the window of tokens
	Protected bool // Known and Frequency >= the protection threshold
}

// Policy are the tunable limits a session enforces.
type Policy struct {
	// KeepShare is the least share of a protected record's body (in
	// characters) that an update, trim or rewrite must keep; below it the
	// change is heavy compression and refused. 0 means DefaultKeepShare.
	KeepShare float64
}

// DefaultKeepShare: a protected record keeps at least half its body.
const DefaultKeepShare = 0.5

func (p Policy) keepShare() float64 {
	if p.KeepShare <= 0 || p.KeepShare > 1 {
		return DefaultKeepShare
	}
	return p.KeepShare
}
