// Package record is the model of git-yoimem's memory records: the four kinds
// (summary, decision, request, knowledge), their layout under .yoi/, slugs,
// the frontmatter fields, snapshots of .yoi/ (and overlays of changes over
// one), and change sets.
//
// A record is Markdown with YAML frontmatter. Git diff is the review surface,
// so a Document keeps the file's bytes and edits splice only the lines of the
// fields they change: parse then render of an unchanged record gives the same
// bytes, and changing one field changes that field's lines alone. Key order,
// unknown keys, comments, CRLF line endings and the body survive every edit.
//
// Parse reads the frontmatter shapes records are written in (block and flow
// sources, flow lists with or without spaces, multi-line, quoted and
// block-scalar descriptions, head, foot and trailing comments, CRLF)
// without the YAML library, which dominated lint time, and gives the
// library's node tree, comments and positions included; any other shape
// goes to the library. FuzzFastYAML and FuzzFastParse hold the two equal.
// A Decoder decodes file after file into the same memory, for readers that
// drop each record before the next (lint); FuzzDecoder holds it equal to
// Decode.
//
// The package is a leaf: it reads from values and never touches the
// filesystem, git or the clock.
package record
