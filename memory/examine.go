package memory

import (
	"bytes"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/record"
)

// Examined is what retrieval needs to know of one record file without
// reading it again: the facts from its frontmatter and its text lowered
// for matching. A machine-local cache keeps these per file stamp.
type Examined struct {
	Text            bool   // UTF-8 without NUL bytes; other files are skipped
	Kind            string // knowledge kind (rule, fact, …) or record kind (summary, decision, request)
	Description     string
	ModelInvokation bool
	UserInvocable   bool
	Status          string
	Problem         string // why the frontmatter could not be read; the record is still searched as text
	Lower           []byte // the whole file lowered; empty unless Text
}

// Examiner returns the examination of a regular record entry of a snapshot.
type Examiner func(e record.Entry) (Examined, error)

// Examine looks at one record file's content.
func Examine(path string, content []byte) Examined {
	if !utf8.Valid(content) || bytes.IndexByte(content, 0) >= 0 {
		return Examined{Problem: "not UTF-8 text"}
	}
	loc := record.Classify(path)
	ex := Examined{Text: true, Kind: loc.Kind.String(), UserInvocable: true, Lower: bytes.ToLower(content)}
	rec, _, err := record.Decode(path, content)
	if err != nil {
		ex.Problem = "frontmatter unreadable (" + err.Error() + "); searched as text"
		return ex
	}
	ex.Description, ex.ModelInvokation, ex.UserInvocable = rec.Description, rec.ModelInvokation, rec.UserInvocable
	ex.Status = string(rec.Status)
	if rec.Kind == record.KindKnowledge && rec.KnowledgeKind != "" {
		ex.Kind = rec.KnowledgeKind
	}
	return ex
}

// ReadExaminer examines entries by reading them from snap.
func ReadExaminer(snap record.Snapshot) Examiner {
	return func(e record.Entry) (Examined, error) {
		content, err := snap.Read(e.Path)
		if err != nil {
			return Examined{}, err
		}
		return Examine(e.Path, content), nil
	}
}
