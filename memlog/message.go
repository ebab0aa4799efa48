// Package memlog is the memory-commit message format: a subject that
// counts what changed, one line per record operation with its category
// and reason, and the Yoimem-* trailers (run, engine, model, consumed
// staging entries, sessions, category counts). Consolidation writes it,
// gitstore's pre-push check and the log command read it; it parses with
// git interpret-trailers. docs/memory-branch.md describes it.
package memlog

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// OpKind is what a memory commit did to one record.
type OpKind string

// Record operations, as written in commit messages. add, update and
// replace integrate staged activity (a category is optional); drop,
// merge, split, trim and rewrite are tidy-ups and must carry a category.
const (
	OpAdd     OpKind = "add"
	OpUpdate  OpKind = "update"
	OpReplace OpKind = "replace" // A -> B: A gets status replaced, replaced_by B
	OpDrop    OpKind = "drop"
	OpMerge   OpKind = "merge" // A -> B: A's content folded into B, A removed
	OpSplit   OpKind = "split" // A -> B: part of A moved to the new record B
	OpTrim    OpKind = "trim"
	OpRewrite OpKind = "rewrite"
)

// Category explains a tidy-up: the evaluation categories of
// docs/memory-branch.md.
type Category string

// The evaluation categories.
const (
	CategoryOutdated   Category = "outdated"
	CategorySuperseded Category = "superseded"
	CategoryUnused     Category = "unused"
	CategoryNoisy      Category = "noisy"
)

// Categories lists the categories in their canonical order.
func Categories() []Category {
	return []Category{CategoryOutdated, CategorySuperseded, CategoryUnused, CategoryNoisy}
}

func validOp(k OpKind) bool {
	switch k {
	case OpAdd, OpUpdate, OpReplace, OpDrop, OpMerge, OpSplit, OpTrim, OpRewrite:
		return true
	}
	return false
}

// needsTarget: replace, merge and split name a second record.
func (k OpKind) needsTarget() bool { return k == OpReplace || k == OpMerge || k == OpSplit }

// IsTidy reports whether the operation is a tidy-up, which must carry a
// category.
func (k OpKind) IsTidy() bool {
	switch k {
	case OpDrop, OpMerge, OpSplit, OpTrim, OpRewrite:
		return true
	}
	return false
}

// badCategories says what is wrong with an operation's categories: an
// unknown one, or one given twice ("" when nothing is).
func badCategories(cs []Category) string {
	seen := map[Category]bool{}
	for _, c := range cs {
		switch {
		case !validCategory(c):
			return fmt.Sprintf("unknown category %q", c)
		case seen[c]:
			return fmt.Sprintf("category %q given twice", c)
		}
		seen[c] = true
	}
	return ""
}

func validCategory(c Category) bool {
	for _, v := range Categories() {
		if c == v {
			return true
		}
	}
	return false
}

// Op is one body line of a memory commit message:
//
//	<op> <path>[ -> <target>][ [<category>[,<category>…]]]: <reason>
//
// A record may fit several categories (docs/memory-branch.md); they are
// written in the canonical order, once each.
type Op struct {
	Kind       OpKind     `json:"op"`
	Path       string     `json:"path"`             // relative to .yoi/
	Target     string     `json:"target,omitempty"` // replace, merge, split
	Categories []Category `json:"categories,omitempty"`
	Reason     string     `json:"reason"`
}

// SortCategories puts categories in the canonical order, once each.
func SortCategories(cs []Category) []Category {
	var out []Category
	for _, c := range Categories() {
		for _, d := range cs {
			if c == d {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Message is a memory commit's message: a subject that counts what
// changed, one line per operation, and Yoimem-* trailers.
type Message struct {
	Subject  string   `json:"subject"`
	Ops      []Op     `json:"ops"`
	RunID    string   `json:"run_id"`
	Engine   string   `json:"engine"`          // rules or llm
	Model    string   `json:"model,omitempty"` // model string for llm
	Consumed []string `json:"consumed"`        // staging IDs this run consumed
	Sessions []string `json:"sessions"`        // session ranges: <session_id>:<start>-<end>
	// Categories counts operations per category; filled by Format.
	Categories map[Category]int `json:"categories"`
}

// Trailer keys.
const (
	TrailerRun        = "Yoimem-Run"
	TrailerEngine     = "Yoimem-Engine"
	TrailerModel      = "Yoimem-Model"
	TrailerConsumed   = "Yoimem-Consumed"
	TrailerSession    = "Yoimem-Session"
	TrailerCategories = "Yoimem-Categories"
)

// Validate checks what the format needs: known ops, targets where needed,
// categories on tidy-ups, single-line values, a run ID and an engine.
func (m *Message) Validate() error {
	var errs []error
	if m.RunID == "" {
		errs = append(errs, errors.New("no run ID"))
	}
	if m.Engine == "" {
		errs = append(errs, errors.New("no engine"))
	}
	for i, op := range m.Ops {
		switch {
		case !validOp(op.Kind):
			errs = append(errs, fmt.Errorf("operation %d: unknown op %q", i+1, op.Kind))
		case op.Path == "" || strings.ContainsAny(op.Path, " \n"):
			errs = append(errs, fmt.Errorf("operation %d: bad path %q", i+1, op.Path))
		case op.Kind.needsTarget() != (op.Target != ""):
			errs = append(errs, fmt.Errorf("operation %d: %s %s: a target is required for replace, merge and split only", i+1, op.Kind, op.Path))
		case op.Kind.IsTidy() && len(op.Categories) == 0:
			errs = append(errs, fmt.Errorf("operation %d: %s %s needs a category (outdated, superseded, unused, noisy)", i+1, op.Kind, op.Path))
		case badCategories(op.Categories) != "":
			errs = append(errs, fmt.Errorf("operation %d: %s", i+1, badCategories(op.Categories)))
		case strings.ContainsAny(op.Target, " \n"):
			errs = append(errs, fmt.Errorf("operation %d: bad target %q", i+1, op.Target))
		}
	}
	for _, v := range append(append([]string{m.RunID, m.Engine, m.Model}, m.Consumed...), m.Sessions...) {
		if strings.ContainsAny(v, "\n\r") {
			errs = append(errs, fmt.Errorf("trailer value %q spans lines", v))
		}
	}
	return errors.Join(errs...)
}

// oneLine folds white space so a reason fits on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// CountSubject returns a subject like "yoimem: 2 added, 1 updated, 1 dropped".
func CountSubject(ops []Op) string {
	counts := map[OpKind]int{}
	for _, op := range ops {
		counts[op.Kind]++
	}
	words := []struct {
		k    OpKind
		verb string
	}{{OpAdd, "added"}, {OpUpdate, "updated"}, {OpReplace, "replaced"}, {OpMerge, "merged"}, {OpSplit, "split"}, {OpTrim, "trimmed"}, {OpRewrite, "rewritten"}, {OpDrop, "dropped"}}
	var parts []string
	for _, w := range words {
		if n := counts[w.k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, w.verb))
		}
	}
	if len(parts) == 0 {
		return "yoimem: no record changes"
	}
	return "yoimem: " + strings.Join(parts, ", ")
}

// Format renders the message. The trailers are the last paragraph and
// every line of it is a trailer, so git interpret-trailers always accepts
// it. An empty Subject is filled from the operations.
func (m *Message) Format() (string, error) {
	if err := m.Validate(); err != nil {
		return "", fmt.Errorf("commit message: %w", err)
	}
	subject := oneLine(m.Subject)
	if subject == "" {
		subject = CountSubject(m.Ops)
	}
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString("\n\n")
	if len(m.Ops) > 0 {
		for _, op := range m.Ops {
			b.WriteString(formatOp(op))
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s: %s\n", TrailerRun, m.RunID)
	fmt.Fprintf(&b, "%s: %s\n", TrailerEngine, m.Engine)
	if m.Model != "" {
		fmt.Fprintf(&b, "%s: %s\n", TrailerModel, m.Model)
	}
	for _, id := range m.Consumed {
		fmt.Fprintf(&b, "%s: %s\n", TrailerConsumed, id)
	}
	for _, s := range m.Sessions {
		fmt.Fprintf(&b, "%s: %s\n", TrailerSession, s)
	}
	fmt.Fprintf(&b, "%s: %s\n", TrailerCategories, formatCounts(countCategories(m.Ops)))
	return b.String(), nil
}

func formatOp(op Op) string {
	var b strings.Builder
	b.WriteString(string(op.Kind))
	b.WriteByte(' ')
	b.WriteString(op.Path)
	if op.Target != "" {
		b.WriteString(" -> ")
		b.WriteString(op.Target)
	}
	if cs := SortCategories(op.Categories); len(cs) > 0 {
		b.WriteString(" [")
		for i, c := range cs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(string(c))
		}
		b.WriteByte(']')
	}
	b.WriteString(": ")
	b.WriteString(oneLine(op.Reason))
	return b.String()
}

func countCategories(ops []Op) map[Category]int {
	out := map[Category]int{}
	for _, c := range Categories() {
		out[c] = 0
	}
	for _, op := range ops {
		for _, c := range SortCategories(op.Categories) {
			out[c]++
		}
	}
	return out
}

func formatCounts(counts map[Category]int) string {
	var parts []string
	for _, c := range Categories() {
		parts = append(parts, fmt.Sprintf("%s=%d", c, counts[c]))
	}
	return strings.Join(parts, " ")
}

// ErrNotMemoryCommit means a message has no Yoimem-Run trailer.
var ErrNotMemoryCommit = errors.New("not a memory commit (no Yoimem-Run trailer)")

// Trailer is one key: value line of the final paragraph.
type Trailer struct{ Key, Value string }

// ParseTrailers returns the trailers of a message the way git finds them:
// the last paragraph (before a "---" divider line), every line a trailer or
// a continuation line, continuations unfolded.
func ParseTrailers(msg string) []Trailer {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "---") {
			lines = lines[:i]
			break
		}
	}
	start := len(lines)
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	if start == 0 {
		return nil // the subject alone is never a trailer block
	}
	var out []Trailer
	for _, l := range lines[start:] {
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(out) > 0 {
			out[len(out)-1].Value += " " + strings.TrimSpace(l)
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		k = strings.TrimRight(k, " \t")
		if !ok || k == "" || !isTrailerKey(k) {
			return nil
		}
		out = append(out, Trailer{Key: k, Value: strings.TrimSpace(v)})
	}
	return out
}

func isTrailerKey(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// singleValued are the trailers a memory commit carries at most once
// (docs/memory-branch.md): one run, one engine, one model, one set of
// counts. Yoimem-Consumed and Yoimem-Session repeat, one per value.
func singleValued() []string {
	return []string{TrailerRun, TrailerEngine, TrailerModel, TrailerCategories}
}

// ErrRepeatedTrailer means a trailer that must appear once appears again.
var ErrRepeatedTrailer = errors.New("a trailer that must appear once appears more than once")

// checkRepeats refuses a second single-valued trailer (keys compare
// without regard to case, as git's do): two runs or two engines in one
// message leave no way to tell which is true.
func checkRepeats(trailers []Trailer) error {
	for _, key := range singleValued() {
		n := 0
		for _, t := range trailers {
			if strings.EqualFold(t.Key, key) {
				n++
			}
		}
		if n > 1 {
			return fmt.Errorf("%s appears %d times; it must appear once: %w", key, n, ErrRepeatedTrailer)
		}
	}
	return nil
}

// ParseMessage reads a memory commit message. Operation lines are the
// body's lines that parse as operations; other prose is allowed and
// ignored. It fails with ErrNotMemoryCommit when the trailers are missing,
// and with ErrRepeatedTrailer when a single-valued one is repeated.
func ParseMessage(msg string) (*Message, error) {
	trailers := ParseTrailers(msg)
	if err := checkRepeats(trailers); err != nil {
		return nil, err
	}
	m := &Message{Categories: map[Category]int{}, Ops: []Op{}, Consumed: []string{}, Sessions: []string{}}
	for _, t := range trailers {
		switch strings.ToLower(t.Key) {
		case strings.ToLower(TrailerRun):
			m.RunID = t.Value
		case strings.ToLower(TrailerEngine):
			m.Engine = t.Value
		case strings.ToLower(TrailerModel):
			m.Model = t.Value
		case strings.ToLower(TrailerConsumed):
			m.Consumed = append(m.Consumed, t.Value)
		case strings.ToLower(TrailerSession):
			m.Sessions = append(m.Sessions, t.Value)
		case strings.ToLower(TrailerCategories):
			counts, err := parseCounts(t.Value)
			if err != nil {
				return nil, err
			}
			m.Categories = counts
		}
	}
	if m.RunID == "" {
		return nil, ErrNotMemoryCommit
	}
	lines := strings.Split(msg, "\n")
	m.Subject = lines[0]
	for _, l := range lines[1:] {
		if op, ok := parseOp(l); ok {
			m.Ops = append(m.Ops, op)
		}
	}
	return m, nil
}

func parseOp(l string) (Op, bool) {
	head, reason, ok := strings.Cut(l, ": ")
	if !ok {
		return Op{}, false
	}
	fields := strings.Fields(head)
	if len(fields) < 2 || !validOp(OpKind(fields[0])) {
		return Op{}, false
	}
	op := Op{Kind: OpKind(fields[0]), Path: fields[1], Reason: reason}
	rest := fields[2:]
	if len(rest) >= 2 && rest[0] == "->" {
		op.Target, rest = rest[1], rest[2:]
	}
	if len(rest) == 1 && strings.HasPrefix(rest[0], "[") && strings.HasSuffix(rest[0], "]") {
		for _, c := range strings.Split(strings.Trim(rest[0], "[]"), ",") {
			op.Categories = append(op.Categories, Category(c))
		}
		rest = nil
	}
	if len(rest) != 0 || op.Kind.needsTarget() != (op.Target != "") {
		return Op{}, false
	}
	return op, true
}

func parseCounts(s string) (map[Category]int, error) {
	out := map[Category]int{}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 || !validCategory(Category(k)) {
			return nil, fmt.Errorf("%s: bad count %q", TrailerCategories, f)
		}
		out[Category(k)] = n
	}
	return out, nil
}

// CheckTrailers verifies a memory commit's message: it parses, its ops are
// valid, and the category counts match its operations. pre-push uses it.
func CheckTrailers(msg string) error {
	m, err := ParseMessage(msg)
	if err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return err
	}
	if !hasTrailer(msg, TrailerCategories) {
		return fmt.Errorf("no %s trailer", TrailerCategories)
	}
	if bad := malformedOps(msg); len(bad) > 0 {
		return fmt.Errorf("malformed operation line(s): %q (want <op> <path>[ -> <target>][ [<category>[,<category>]]]: <reason>)", bad)
	}
	want := countCategories(m.Ops)
	keys := make([]string, 0, len(want))
	for c := range want {
		keys = append(keys, string(c))
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m.Categories[Category(k)] != want[Category(k)] {
			return fmt.Errorf("%s says %s=%d but the operations have %d", TrailerCategories, k, m.Categories[Category(k)], want[Category(k)])
		}
	}
	return nil
}

func hasTrailer(msg, key string) bool {
	for _, t := range ParseTrailers(msg) {
		if strings.EqualFold(t.Key, key) {
			return true
		}
	}
	return false
}

// malformedOps returns body lines that start like an operation ("drop x")
// but do not parse as one: a typo must not pass as prose.
func malformedOps(msg string) []string {
	var bad []string
	lines := strings.Split(msg, "\n")
	for _, l := range lines[1:] {
		word, rest, ok := strings.Cut(l, " ")
		if !ok || !validOp(OpKind(word)) || strings.HasPrefix(rest, " ") {
			continue
		}
		if _, ok := parseOp(l); !ok && strings.Contains(rest, ": ") {
			bad = append(bad, l)
		}
	}
	return bad
}
