// Package review describes a memory pull request: for each memory commit
// of a range, oldest first, its operations grouped by category with their
// reasons, the records it added, the records that may have lost
// information (sources gone, or more than a third of the body's lines
// removed), the protected records it touched, the knowledge it created
// with the candidate evidence the run had, and the sessions behind it.
// It reads the commits, their blobs and their evidence notes
// (refs/notes/yoimem); it writes nothing. docs/memory-branch.md,
// "Reviewing a memory pull request", describes the output.
package review
