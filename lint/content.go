package lint

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"path"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// binary reports the first byte that is not text: a NUL (git then takes
// the file for binary and shows no diff of it) or another control
// character (a terminal escape would reach the agent's context and the
// reviewer's screen). Tab, LF and CR are text.
func (fl *fileLint) binary(content []byte) {
	at := firstControl(content)
	if at < 0 {
		return
	}
	n := 0
	for _, c := range content[at:] {
		if isControl(c) {
			n++
		}
	}
	line, col := position(content, at)
	what := fmt.Sprintf("a control character (0x%02x)", content[at])
	if content[at] == 0 {
		what = "a NUL byte"
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (%d such bytes in the file)", n)
	}
	fl.add(Error, RuleBinaryContent, line, col, "%s%s; records are text, and git shows no diff of a file with NUL bytes: remove it", what, more)
}

func isControl(c byte) bool {
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f
}

// firstControl returns the offset of the first control byte (isControl)
// in b, or -1. Every file is scanned, and almost none has one: eight bytes
// are looked at together, and only a word holding a byte below 0x20 (a
// tab or newline, mostly) or a DEL is looked at more closely, still as
// one word (controlMask).
func firstControl(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		below := (x - 0x20*ones) &^ x & highs // some byte < 0x20
		del := x ^ 0x7f*ones
		if below|((del-ones)&^del&highs) == 0 {
			continue
		}
		if m := controlMask(x); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if isControl(b[i]) {
			return i
		}
	}
	return -1
}

// controlMask sets the high bit of each byte of x (little-endian) that is
// a control byte, and no other bit. No byte's sum carries into the next,
// so, unlike the quick test in firstControl, each byte is told exactly.
func controlMask(x uint64) uint64 {
	const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	eq := func(c uint64) uint64 { // bytes equal to c
		y := x ^ c*ones
		return ^((y&lows + lows) | y) & highs
	}
	below := ^(x | (x&lows + 0x60*ones)) & highs // bytes < 0x20
	return below&^(eq('\t')|eq('\n')|eq('\r')) | eq(0x7f)
}

// idFields reports id: and name: fields: a record's ID is its file name.
func (fl *fileLint) idFields(rec *record.Record) {
	for i, n := 0, rec.Doc.NumKeys(); i < n; i++ {
		key, _, _ := rec.Doc.KeyAt(i)
		if k := strings.ToLower(key); k != "id" && k != "name" {
			continue
		}
		line, col := rec.Doc.KeyPos(key)
		id := strings.TrimSuffix(path.Base(rec.Path), ".md")
		fl.add(Error, RuleIDField, line, col, "records have no %s field: the file name is the ID (%q for %s); remove the line", key, id, rec.Path)
	}
}

// summaryMissing is the finding for a .yoi/ without memory/summary.md (the
// always-on context starts from it); deleted says a change removes it.
func summaryMissing(deleted bool) Finding {
	msg := "memory/summary.md is missing; the always-on context starts from it: restore it (git checkout HEAD -- .yoi/memory/summary.md) or write one"
	if deleted {
		msg = "deleting memory/summary.md leaves .yoi/ without a summary, and the always-on context starts from it: edit it instead"
	}
	return Finding{Path: record.SummaryPath, Line: 1, Col: 1, Severity: Error, Rule: RuleSummaryMissing, Message: msg}
}

// hasSummary reports whether the snapshot has the summary at all (a
// symlink or directory there is reported by the path rules).
func hasSummary(view record.View) bool {
	_, ok := view.Lookup(record.SummaryPath)
	return ok
}

// deletesSummary reports whether deleted names the summary and the
// snapshot no longer has it, while .yoi/ still holds something: a change
// that removes all of .yoi/ gives up the memory, and leaves nothing that
// needs a summary.
func deletesSummary(view record.View, deleted []string) bool {
	for _, p := range deleted {
		if p == record.SummaryPath {
			empty := true
			view.Scan("", func(record.Entry) bool { empty = false; return false })
			return !hasSummary(view) && !empty
		}
	}
	return false
}
