// Package agent is the llm consolidation engine: a bounded tool loop in
// which a model (any llm.Provider) folds a run's staging entries into the
// memory records and tidies them, through the tools memory_read,
// memory_write, memory_edit, memory_delete, knowledge_search,
// memory_search and a final report.
//
// Every change goes through the run's consolidate.Session, which enforces
// the memory plan's principles in code whatever the model asks (records
// only, never workflow/ nor a locked record; decisions replaced, never
// deleted; sources attached by code from the staging entries a change
// names; new knowledge only from the knowledge-candidate report; no drop
// or heavy compression of a protected record; categories on tidy-ups)
// and lints it; a refusal comes back to the model as a tool error it can
// act on. Reads and searches run over the session's snapshot and record
// no usage: the agent's reads are upkeep, not use.
//
// The first message (NewBrief) holds the staging entries with their
// sources, the full text of the summary, decisions and requests or an
// index of them, the knowledge-candidate report and the tidy-up material,
// within yoimem.consolidate.budgetChars; knowledge is never pasted in.
// The system prompt (SystemPrompt) states the principles. The package
// links no model SDK: providers come from package llm. docs/consolidate.md
// describes the engine for users.
package agent
