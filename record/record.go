package record

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// Record is the typed view of a record file. Fields a kind does not have
// stay zero. Doc keeps the bytes for minimal-diff edits.
type Record struct {
	Path string // relative to .yoi/, slash-separated
	Kind Kind
	Slug string // empty for the summary

	CreatedAt time.Time
	UpdatedAt time.Time

	// Decisions.
	Status     Status
	ReplacedBy string

	// Decisions and requests: Sources; knowledge: LastSources.
	Sources     []Source
	LastSources []Source

	// Knowledge.
	KnowledgeKind   string
	Description     string
	ModelInvokation bool
	UserInvocable   bool

	// Summary.
	LastRewrittenFrom *Source

	Doc *Document
}

// Body returns the Markdown after the frontmatter.
func (r *Record) Body() []byte { return r.Doc.Body() }

// Chars is the record's size in characters (runes), the unit of the caps.
func (r *Record) Chars() int { return utf8.RuneCount(r.Doc.Bytes()) }

// Decode reads a record of a known location. Schema problems come back as
// FieldErrors (with positions) next to a Record holding whatever was
// readable; a parse error means there is no Record.
func Decode(path string, content []byte) (*Record, []FieldError, error) {
	loc := Classify(path)
	if loc.Area != AreaRecord {
		return nil, nil, fmt.Errorf("%s is not a record path", path)
	}
	doc, err := Parse(content)
	if err != nil {
		return nil, nil, err
	}
	rec, errs := DecodeDocument(doc, loc.Kind)
	rec.Path, rec.Slug = path, loc.Slug
	return rec, errs, nil
}

// DecodeDocument reads the typed fields of a parsed document as kind.
func DecodeDocument(doc *Document, kind Kind) (*Record, []FieldError) {
	r := new(Record)
	dc := decoder{doc: doc}
	dc.fill(r, kind)
	return r, dc.errs
}

// fill sets r (its memory reused: every field is set anew) to the typed
// fields of dc's document read as kind.
func (dc *decoder) fill(r *Record, kind Kind) {
	doc := dc.doc
	*r = Record{Kind: kind, Doc: doc, UserInvocable: true}
	for _, key := range Required(kind) {
		if key == KeyModelInvokation && doc.Get(KeyModelInvokation) == nil && doc.Get(KeyModelInvocation) != nil {
			continue
		}
		if isNull(doc.Get(key)) {
			dc.fail(RuleRequired, key, nil, "%s record needs %s", kind, key)
		}
	}
	r.CreatedAt, _ = dc.timestamp(KeyCreatedAt, doc.Get(KeyCreatedAt))
	r.UpdatedAt, _ = dc.timestamp(KeyUpdatedAt, doc.Get(KeyUpdatedAt))
	switch kind {
	case KindDecision:
		dc.decision(r)
		r.Sources, _ = dc.sources(KeySources, doc.Get(KeySources))
	case KindRequest:
		r.Sources, _ = dc.sources(KeySources, doc.Get(KeySources))
	case KindKnowledge:
		dc.knowledge(r)
	case KindSummary:
		if n := doc.Get(KeyLastRewritten); !isNull(n) {
			if s, ok := dc.source(KeyLastRewritten, -1, n); ok {
				r.LastRewrittenFrom = &s
			}
		}
	}
}

func (dc *decoder) decision(r *Record) {
	if s, ok := dc.str(KeyStatus, dc.doc.Get(KeyStatus)); ok {
		r.Status = Status(s)
		if !r.Status.Valid() {
			dc.fail(RuleStatusEnum, KeyStatus, dc.doc.Get(KeyStatus), "status must be open, resolved or replaced, not %q", s)
		}
	}
	r.ReplacedBy, _ = dc.str(KeyReplacedBy, dc.doc.Get(KeyReplacedBy))
	switch {
	case r.Status == StatusReplaced && r.ReplacedBy == "":
		dc.fail(RuleReplacedByReq, KeyStatus, dc.doc.Get(KeyStatus), "status is replaced but replaced_by does not name the record that replaces it")
	case r.Status != StatusReplaced && r.ReplacedBy != "" && r.Status.Valid():
		dc.fail(RuleReplacedByReq, KeyReplacedBy, dc.doc.Get(KeyReplacedBy), "replaced_by is set but status is %s; set status: replaced or remove replaced_by", r.Status)
	}
}

func (dc *decoder) knowledge(r *Record) {
	doc := dc.doc
	r.KnowledgeKind, _ = dc.str(KeyKind, doc.Get(KeyKind))
	r.Description, _ = dc.str(KeyDescription, doc.Get(KeyDescription))
	mi, haveMI := dc.boolean(KeyModelInvokation, doc.Get(KeyModelInvokation))
	if alias := doc.Get(KeyModelInvocation); !isNull(alias) {
		if v, ok := dc.boolean(KeyModelInvocation, alias); ok {
			if haveMI && v != mi {
				dc.fail(RuleAliasConflict, KeyModelInvocation, alias, "model_invocation (%t) contradicts model_invokation (%t); keep one", v, mi)
			}
			if !haveMI {
				mi = v
			}
		}
	}
	r.ModelInvokation = mi
	if ui, ok := dc.boolean(KeyUserInvocable, doc.Get(KeyUserInvocable)); ok {
		r.UserInvocable = ui
	}
	r.LastSources, _ = dc.sources(KeyLastSources, doc.Get(KeyLastSources))
}
