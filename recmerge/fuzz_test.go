package recmerge

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// FuzzMerge: any two edits of a readable record merge into a readable
// record; conflict markers appear only in the body, and only when the
// merge reports a conflict (or an input's body had them). When both sides
// only inserted lines into the body (every base line kept), the body
// merges without a conflict and holds every line of both sides.
func FuzzMerge(f *testing.F) {
	base := string(rec(baseFM, "# T\n\none\ntwo\nthree\n"))
	f.Add(base, strings.Replace(base, "two", "TWO", 1), strings.Replace(base, "three", "3", 1))
	f.Add(base, strings.Replace(base, "two", "A", 1), strings.Replace(base, "two", "B", 1))
	f.Add(base, strings.Replace(base, "status: open", "status: replaced\nreplaced_by: memory/decisions/a.md", 1), strings.Replace(base, "status: open", "status: replaced\nreplaced_by: memory/decisions/b.md", 1))
	f.Add(base, strings.Replace(base, "s1,", "s2,", 1), strings.ReplaceAll(base, "\n", "\r\n"))
	f.Add(base, "---\n{a: 1, sources: [x]}\n---\nbody", "---\nsources: [y, x]\nkind: k\n---\n")
	f.Add("", base, strings.Replace(base, "one", "uno", 1))
	f.Add(base, base+"four\n", base+"five\n")
	f.Add(base, strings.Replace(base, "one\n", "one\nA\n", 1)+"B", strings.Replace(base, "two\n", "two\nC\n", 1)+"B\nD\n")
	f.Add(base, base+"\nA\n", base+"\nB\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		for _, s := range []string{ours, theirs} {
			if _, err := record.Parse([]byte(s)); err != nil {
				return
			}
		}
		if base != "" {
			if _, err := record.Parse([]byte(base)); err != nil {
				return
			}
		}
		got, conflict, err := Merge(decisionPath, []byte(base), []byte(ours), []byte(theirs))
		if err != nil {
			t.Fatalf("merge: %v", err)
		}
		doc, err := record.Parse(got)
		if err != nil {
			t.Fatalf("merged record does not parse: %v\n%q", err, got)
		}
		header := got[:len(got)-len(doc.Body())]
		inputsHad := func(part func(d *record.Document) []byte) bool {
			for _, s := range []string{base, ours, theirs} {
				if d, err := record.Parse([]byte(s)); err == nil && bytes.Contains(part(d), []byte("<<<<<<<")) {
					return true
				}
			}
			return false
		}
		if bytes.Contains(header, []byte(markerOurs)) && !inputsHad(func(d *record.Document) []byte { return d.Bytes()[:len(d.Bytes())-len(d.Body())] }) {
			t.Fatalf("markers in the frontmatter:\n%q", got)
		}
		// A side's replacement is never lost: status replaced and a
		// replaced_by survive the merge.
		for _, side := range []string{ours, theirs} {
			sd, _ := record.Parse([]byte(side))
			if side == base || sd.Get(record.KeyReplacedBy) == nil || (ours == theirs) {
				continue
			}
			if base != "" && (ours == base || theirs == base) {
				continue // a one-sided change is taken whole, as git does
			}
			if doc.Get(record.KeyReplacedBy) == nil {
				t.Fatalf("replaced_by lost:\n%q", got)
			}
		}
		if !conflict && bytes.Contains(doc.Body(), []byte(markerOurs)) && !inputsHad((*record.Document).Body) {
			t.Fatalf("markers without a conflict:\n%q", got)
		}
		if base != "" {
			checkInsertionsKept(t, base, ours, theirs, doc, conflict)
		}
	})
}

// checkInsertionsKept: when both sides only inserted body lines, the merge
// reports no conflict (unless both set replaced_by differently, which is
// reported apart from the body) and the body holds every line of both.
func checkInsertionsKept(t *testing.T, base, ours, theirs string, merged *record.Document, conflict bool) {
	t.Helper()
	bd, _ := record.Parse([]byte(base))
	od, _ := record.Parse([]byte(ours))
	td, _ := record.Parse([]byte(theirs))
	nl := od.Newline()
	key := func(d *record.Document) []string { return lineKeys(splitLines(string(d.Body())), nl) }
	kb, ko, kt := key(bd), key(od), key(td)
	if !isSubsequence(kb, ko) || !isSubsequence(kb, kt) {
		return
	}
	rb, ro, rt := bd.Get(record.KeyReplacedBy), od.Get(record.KeyReplacedBy), td.Get(record.KeyReplacedBy)
	replacedByConflict := ro != nil && rt != nil && !same(ro, rt) && !same(rb, ro) && !same(rb, rt)
	if conflict && !replacedByConflict {
		t.Fatalf("both sides only inserted, yet a conflict:\n%q", merged.Bytes())
	}
	have := map[string]bool{}
	for _, k := range key(merged) {
		have[k] = true
	}
	for _, k := range append(ko, kt...) {
		if !have[k] {
			t.Fatalf("line %q of a side lost:\n%q", k, merged.Bytes())
		}
	}
}

// isSubsequence reports whether sub's lines all appear in s, in order.
func isSubsequence(sub, s []string) bool {
	i := 0
	for _, l := range s {
		if i < len(sub) && sub[i] == l {
			i++
		}
	}
	return i == len(sub)
}

// FuzzMergeInsertions: sides made from base by inserting lines only (at
// places the fuzzer picks) merge as a record body does — no conflict, and
// every line of both sides kept. FuzzMerge checks the same on whole
// records; this target reaches insert-only sides far more often.
func FuzzMergeInsertions(f *testing.F) {
	f.Add("- one\n- two\n", "- A\n", "- B\n", []byte{2}, []byte{2})
	f.Add("- one\n- two", "- A", "- B\n- A\n", []byte{0, 2}, []byte{1, 2})
	f.Add("P\n", "\nA\n", "\nB\n", []byte{1}, []byte{1})
	f.Add("x\r\ny\r\n", "a\r\n", "b\r\n", []byte{1}, []byte{1})
	f.Fuzz(func(t *testing.T, base, insA, insB string, atA, atB []byte) {
		o := splitLines(base)
		a, b := insertLines(o, splitLines(insA), atA), insertLines(o, splitLines(insB), atB)
		got, conflict := merge3(base, strings.Join(a, ""), strings.Join(b, ""), "\n", true)
		if conflict {
			t.Fatalf("both sides only inserted, yet a conflict:\nbase %q\nours %q\ntheirs %q\ngot %q", base, a, b, got)
		}
		have := map[string]bool{}
		for _, k := range lineKeys(splitLines(got), "\n") {
			have[k] = true
		}
		for _, k := range append(lineKeys(a, "\n"), lineKeys(b, "\n")...) {
			if !have[k] {
				t.Fatalf("line %q lost:\nbase %q\nours %q\ntheirs %q\ngot %q", k, base, a, b, got)
			}
		}
	})
}

// insertLines inserts ins[i] before base line at[i] (modulo the places
// there are; the last byte of at repeats), every line but the last ending
// in a break so that no two lines join.
func insertLines(base, ins []string, at []byte) []string {
	out := slices.Clone(base)
	for i, l := range ins {
		pos := 0
		if len(at) > 0 {
			pos = int(at[min(i, len(at)-1)]) % (len(out) + 1)
		}
		out = slices.Insert(out, pos, l)
	}
	for i := range out[:max(len(out)-1, 0)] {
		if !strings.HasSuffix(out[i], "\n") {
			out[i] += "\n"
		}
	}
	return out
}
