// Package memory is the memory tools' shared core: knowledge_search and
// memory_search over .yoi/ (and, in later steps, the always-on context,
// #slug expansion and the read/write/edit/delete tools). It is pure: it
// reads a record.Snapshot and returns values; the CLI, the MCP server and
// the consolidation agent are its front ends.
package memory
