// Package extract turns a new part of an agent session log into activity
// records for consolidation: what was decided, discussed, tried and asked
// for (DESIGN 6.2). It renders the entries after the pointer for a model
// (tool output only as short summaries, text this tool injected left out,
// secrets redacted), asks for JSON in a strict schema, checks and redacts
// the answer, and returns the staging record that the command writes to
// .yoi/memory/_staging/. It never writes anything itself: the command
// makes the staging file durable, then moves the pointer.
package extract
