// Package memory is the memory tools' shared core (docs/retrieval.md):
// knowledge_search and memory_search over .yoi/ (Search, Show), the
// always-on context (Context), #slug expansion (Expand), and the
// read/write/edit/delete tools (Tools) over a Store: the working tree
// (gitstore.WorktreeStore) or an overlay (MapStore). ToolDefs is the one
// definition of the tools as a model is offered them (names, descriptions,
// input and output schemas). It is pure but for the Store it is given:
// it reads a record.Snapshot and returns values; the CLI, the MCP server
// and the consolidation agent are its front ends.
package memory
