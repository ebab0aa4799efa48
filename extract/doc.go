// Package extract turns a new part of an agent session log into activity
// records for consolidation: what was decided, discussed, tried and asked
// for (docs/extract.md).
//
// Its core is pure: Run renders the entries after the pointer for a model
// (tool output only as short summaries, text this tool injected left out,
// secrets redacted), asks for JSON in a strict schema, checks and redacts
// the answer, and returns the activity; Staging is the file format of
// .yoi/memory/_staging/<id>.json, State the machine-local pointer.
//
// Runner is the side that writes, for one log (SessionLog): Check scans
// what is new and feeds the token ledger; Run also calls the model when
// the threshold is met, makes the staging file durable, then moves the
// pointer (a native log gets it appended), under an in-flight lock per
// log; Preview is the dry run. On any failure the pointer stays and
// nothing partial is left.
package extract
