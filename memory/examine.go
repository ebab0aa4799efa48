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
	Facts           bool   // the frontmatter was looked at: Kind and the rest below are the record's
	Kind            string // knowledge kind (rule, fact, …) or record kind (summary, decision, request)
	Description     string
	ModelInvokation bool
	UserInvocable   bool
	Status          string
	Problem         string // why the frontmatter could not be read; the record is still searched as text
	Lower           []byte // the whole file lowered; empty unless Text
}

// ExamineText looks at a record file's text only: whether it is text, and
// the text lowered for matching. Decoding the frontmatter of every record
// would cost a search more than matching them; a search decodes its hits.
func ExamineText(path string, content []byte) Examined {
	ex := examineUnlowered(path, content)
	if ex.Text {
		ex.Lower = lower(content)
	}
	return ex
}

// examineUnlowered is ExamineText without the lowered text.
func examineUnlowered(path string, content []byte) Examined {
	if !utf8.Valid(content) || bytes.IndexByte(content, 0) >= 0 {
		return Examined{Problem: "not UTF-8 text"}
	}
	return Examined{Text: true, Kind: record.Classify(path).Kind.String(), UserInvocable: true}
}

// ExamineTextInPlace is ExamineText lowering content in place when it can
// (ASCII text): Lower then is content, which the caller gives up. A cold
// search examines every record and keeps only the lowered texts.
func ExamineTextInPlace(path string, content []byte) Examined {
	if !utf8.Valid(content) || bytes.IndexByte(content, 0) >= 0 {
		return Examined{Problem: "not UTF-8 text"}
	}
	return Examined{Text: true, Kind: record.Classify(path).Kind.String(), UserInvocable: true, Lower: lowerInPlace(content)}
}

// Examiner returns the examination of a regular record entry of a snapshot.
type Examiner func(e record.Entry) (Examined, error)

// Examine looks at one record file's content: its text and its facts.
func Examine(path string, content []byte) Examined {
	return withFacts(ExamineText(path, content), path, content)
}

// ExamineFacts is Examine without the lowered text (Lower is nil): the
// always-on context reads descriptions only, and lowering a record costs
// about as much as reading it.
func ExamineFacts(path string, content []byte) Examined {
	return withFacts(examineUnlowered(path, content), path, content)
}

// withFacts adds the facts of content's frontmatter to ex, an
// examination of its text.
func withFacts(ex Examined, path string, content []byte) Examined {
	if !ex.Text {
		return ex
	}
	ex.Facts = true
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

// ReadExaminer examines entries by reading them from snap, with examine
// (Examine or ExamineText).
func ReadExaminer(snap record.Snapshot, examine func(path string, content []byte) Examined) Examiner {
	return func(e record.Entry) (Examined, error) {
		content, err := snap.Read(e.Path)
		if err != nil {
			return Examined{}, err
		}
		return examine(e.Path, content), nil
	}
}
