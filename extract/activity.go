package extract

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/yoimem/git-yoimem/internal/secrets"
)

// Activity is what the model reports of a part of a session: only what
// happened. Knowledge and the records are consolidation's to derive.
type Activity struct {
	Decisions   []Decision   `json:"decisions"`
	Discussions []Discussion `json:"discussions"`
	Attempts    []Attempt    `json:"attempts"`
	Requests    []Request    `json:"requests"`
}

// Decision is a choice made: the options weighed, the one chosen, why.
type Decision struct {
	Topic     string   `json:"topic"`
	Options   []string `json:"options"`
	Chosen    string   `json:"chosen"`
	Rationale string   `json:"rationale"`
}

// Discussion is a topic talked over without a decision, and its points.
type Discussion struct {
	Topic  string   `json:"topic"`
	Points []string `json:"points"`
}

// Attempt is something tried and how it went.
type Attempt struct {
	What    string `json:"what"`
	Result  string `json:"result"`
	Success bool   `json:"success"`
}

// Request is a structured summary of something the user asked for.
type Request struct {
	Intent  string `json:"intent"`
	Target  string `json:"target"`
	Summary string `json:"summary"`
}

// Empty reports whether there is nothing to save.
func (a Activity) Empty() bool {
	return len(a.Decisions) == 0 && len(a.Discussions) == 0 && len(a.Attempts) == 0 && len(a.Requests) == 0
}

// Append adds b's items to a.
func (a *Activity) Append(b Activity) {
	a.Decisions = append(a.Decisions, b.Decisions...)
	a.Discussions = append(a.Discussions, b.Discussions...)
	a.Attempts = append(a.Attempts, b.Attempts...)
	a.Requests = append(a.Requests, b.Requests...)
}

// Schema is the strict JSON schema of the model's answer. Every array may
// be empty: "nothing to save" is a normal answer.
const Schema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["decisions", "discussions", "attempts", "requests"],
  "properties": {
    "decisions": {
      "type": "array",
      "description": "choices made in this part of the session",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["topic", "options", "chosen", "rationale"],
        "properties": {
          "topic": {"type": "string", "description": "what was decided, as a short noun phrase"},
          "options": {"type": "array", "items": {"type": "string"}, "description": "the options weighed"},
          "chosen": {"type": "string", "description": "the option chosen"},
          "rationale": {"type": "string", "description": "why"}
        }
      }
    },
    "discussions": {
      "type": "array",
      "description": "topics discussed without a decision yet",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["topic", "points"],
        "properties": {
          "topic": {"type": "string"},
          "points": {"type": "array", "items": {"type": "string"}}
        }
      }
    },
    "attempts": {
      "type": "array",
      "description": "things tried and how they went",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["what", "result", "success"],
        "properties": {
          "what": {"type": "string"},
          "result": {"type": "string"},
          "success": {"type": "boolean"}
        }
      }
    },
    "requests": {
      "type": "array",
      "description": "what the user asked for, structured",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["intent", "target", "summary"],
        "properties": {
          "intent": {"type": "string", "description": "what the user wants to achieve"},
          "target": {"type": "string", "description": "what it is about: a component, file, feature"},
          "summary": {"type": "string"}
        }
      }
    }
  }
}`

// parseActivity decodes the answer strictly (unknown fields and missing
// or null arrays are errors even from a provider that did not validate
// it) and redacts any credential the model repeated: staging files must
// not carry secrets even if the redaction of the input missed one.
func parseActivity(raw json.RawMessage) (Activity, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return Activity{}, fmt.Errorf("decode the model's answer: %w", err)
	}
	for _, k := range []string{"decisions", "discussions", "attempts", "requests"} {
		if v, ok := top[k]; !ok || string(v) == "null" {
			return Activity{}, fmt.Errorf("decode the model's answer: %q is missing or null", k)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var a Activity
	if err := dec.Decode(&a); err != nil {
		return Activity{}, fmt.Errorf("decode the model's answer: %w", err)
	}
	a.redact()
	return a, nil
}

func (a *Activity) redact() {
	r := func(s *string) { *s = redactString(*s) }
	for i := range a.Decisions {
		d := &a.Decisions[i]
		r(&d.Topic)
		r(&d.Chosen)
		r(&d.Rationale)
		for j := range d.Options {
			r(&d.Options[j])
		}
	}
	for i := range a.Discussions {
		d := &a.Discussions[i]
		r(&d.Topic)
		for j := range d.Points {
			r(&d.Points[j])
		}
	}
	for i := range a.Attempts {
		r(&a.Attempts[i].What)
		r(&a.Attempts[i].Result)
	}
	for i := range a.Requests {
		q := &a.Requests[i]
		r(&q.Intent)
		r(&q.Target)
		r(&q.Summary)
	}
}

func redactString(s string) string {
	if len(secrets.Find([]byte(s))) == 0 {
		return s
	}
	return string(secrets.Redact([]byte(s)))
}
