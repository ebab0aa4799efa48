package recmerge

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/record"
	"go.yaml.in/yaml/v3"
)

// Merge merges two edits (ours, theirs) of a record file from their common
// ancestor base; path is the file's path in the repository (git's %P),
// which says the record's kind. An empty base means both sides added the
// file. The result starts from ours, so ours' key order, unknown keys and
// line endings stay, and a field changes by a minimal-diff edit. A side
// equal to base (git's trivial merge, for which it runs no driver) gives
// the other side whole.
//
// conflict reports a body region both sides changed differently: it is
// left between conflict markers in the body, the frontmatter is merged
// and the result still parses as a record. Lines both sides inserted at
// the same place of a record's body are not a conflict: both are kept. When a side is not a readable
// record the files are merged as plain text, markers wherever they fall.
func Merge(path string, base, ours, theirs []byte) (merged []byte, conflict bool, err error) {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(base, theirs):
		return ours, false, nil
	case bytes.Equal(base, ours):
		return theirs, false, nil
	}
	od, oerr := record.Parse(ours)
	td, terr := record.Parse(theirs)
	var bd *record.Document
	var berr error
	if len(base) > 0 {
		bd, berr = record.Parse(base)
	}
	if oerr != nil || terr != nil || berr != nil {
		text, c := merge3(string(base), string(ours), string(theirs), detectNewline(ours), false)
		return []byte(text), c, nil
	}
	m := &merger{kind: kindOf(path), base: bd, ours: od, theirs: td}
	if err := m.fields(); err != nil {
		return nil, false, fmt.Errorf("merge %s: %w", path, err)
	}
	var baseBody []byte
	if bd != nil {
		baseBody = bd.Body()
	}
	// Two insertions at one place are kept, ours first, in the body of a
	// record both sides edited; a text that is not a record, a file outside
	// the record kinds (workflow/) and a record both sides added conflict
	// there, as git's text merge does.
	union := bd != nil && m.kind != record.KindNone
	body, conflict := merge3(string(baseBody), string(od.Body()), string(td.Body()), od.Newline(), union)
	if len(m.conflicts) > 0 {
		note, err := conflictNote(m.conflicts, od.Newline())
		if err != nil {
			return nil, false, fmt.Errorf("merge %s: %w", path, err)
		}
		body, conflict = note+body, true
	}
	out := m.result
	if err := out.SetBody([]byte(body)); err != nil {
		return nil, false, fmt.Errorf("merge %s: body: %w", path, err)
	}
	return out.Bytes(), conflict, nil
}

// kindOf reads the record kind from a repository path: the part after the
// last .yoi/ element (the workspace may be a subdirectory).
func kindOf(p string) record.Kind {
	p = strings.ReplaceAll(p, `\`, "/")
	if i := strings.LastIndex(p, "/"+record.Dir+"/"); i >= 0 {
		p = p[i+len(record.Dir)+2:]
	} else {
		p = strings.TrimPrefix(p, record.Dir+"/")
	}
	return record.Classify(p).Kind
}

// conflictNote renders fields both sides set differently as a conflict
// block for the top of the body: the frontmatter holds the later side's
// value, and the person who resolves the conflict keeps one there.
func conflictNote(cs []fieldConflict, nl string) (string, error) {
	var ours, theirs strings.Builder
	for _, c := range cs {
		for _, side := range []struct {
			out *strings.Builder
			v   *yaml.Node
		}{{&ours, c.ours}, {&theirs, c.theirs}} {
			b, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{record.StringNode(c.key), side.v}})
			if err != nil {
				return "", fmt.Errorf("field %s: %w", c.key, err)
			}
			side.out.WriteString(strings.ReplaceAll(string(b), "\n", nl))
		}
	}
	return markerOurs + nl + ours.String() + markerSep + nl + theirs.String() + markerTheirs + nl, nil
}

func detectNewline(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
