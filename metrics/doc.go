// Package metrics is the usage side of memory: usage events (every
// explicit read of a record, and the context cost of injected
// descriptions), the token clock that turns wall time into the workspace's
// cumulative input tokens, record frequencies (invokes per million input
// tokens over the last few invokes), and what they judge: each record
// unknown, unused, used or protected (Judge, Report), and the
// knowledge-candidate report.
//
// The judging is pure: it computes over values. Local reads and appends
// the machine-local journals and ledger, and gives consolidation what is
// pending (Pending, MarkMoved); run files (.yoi/metrics/<run-id>.jsonl,
// EncodeRun, ReadRun) are what a run's memory commit moves into the
// repository. docs/retrieval.md ("Usage metrics") describes the rules and
// formats.
package metrics
