package record

import "fmt"

// Kind is one of the four record kinds.
type Kind int

// The record kinds. KindNone marks a path that is not a record.
const (
	KindNone Kind = iota
	KindSummary
	KindDecision
	KindRequest
	KindKnowledge
)

// String returns the kind's name as used in output and JSON.
func (k Kind) String() string {
	switch k {
	case KindSummary:
		return "summary"
	case KindDecision:
		return "decision"
	case KindRequest:
		return "request"
	case KindKnowledge:
		return "knowledge"
	}
	return "none"
}

// ParseKind is the inverse of String.
func ParseKind(s string) (Kind, error) {
	for _, k := range []Kind{KindSummary, KindDecision, KindRequest, KindKnowledge} {
		if k.String() == s {
			return k, nil
		}
	}
	return KindNone, fmt.Errorf("unknown record kind %q (want summary, decision, request or knowledge)", s)
}

// Status is a decision's status.
type Status string

// The decision statuses (docs/record-format.md).
const (
	StatusOpen     Status = "open"
	StatusResolved Status = "resolved"
	StatusReplaced Status = "replaced"
)

// Valid reports whether s is one of the enum values.
func (s Status) Valid() bool {
	return s == StatusOpen || s == StatusResolved || s == StatusReplaced
}
