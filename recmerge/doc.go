// Package recmerge merges three versions of a record file — the common
// ancestor, ours and theirs — the way git's merge driver for .yoi/**/*.md
// does (docs/merging.md). The frontmatter is merged field by field with
// the record rules (sources accumulate, the later updated_at, the earlier
// created_at, the strongest decision status, last_sources from the side
// updated later, anything else three-way with the later edit winning), so
// the YAML never holds conflict markers; the body is merged line by line
// three-way, and only a real body conflict leaves markers, in the body.
// Both sides inserting lines at the same place (no base line removed or
// changed there) is not a conflict in a record's body: both insertions
// are kept, ours first (unionInsert). The plain-text fallback, for a side
// that is not a readable record, and files outside the record kinds keep
// git's behaviour and conflict there.
//
// The package is pure: bytes in, bytes out, no git and no files.
package recmerge
