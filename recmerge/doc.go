// Package recmerge merges three versions of a record file — the common
// ancestor, ours and theirs — the way git's merge driver for .yoi/**/*.md
// does (docs/merging.md). The frontmatter is merged field by field with
// the record rules (sources accumulate, the later updated_at, the earlier
// created_at, the strongest decision status, last_sources from the side
// updated later, anything else three-way with the later edit winning), so
// the YAML never holds conflict markers; the body is merged line by line
// three-way, and only a real body conflict leaves markers, in the body.
//
// The package is pure: bytes in, bytes out, no git and no files.
package recmerge
