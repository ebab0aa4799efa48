package lint

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/secrets"
	"github.com/yoimem/git-yoimem/internal/tokens"
	"github.com/yoimem/git-yoimem/record"
)

// facts are what the cross-record rules need to know about a decision.
type facts struct {
	path          string
	slug          string
	replacedBy    string
	rbLine, rbCol int
}

type fileResult struct {
	findings []Finding
	facts    *facts
}

type fileLint struct {
	entry   record.Entry
	out     []Finding
	scratch []byte // for the scans of values as YAML reads them
}

func (fl *fileLint) add(sev Severity, rule string, line, col int, format string, args ...any) {
	fl.out = append(fl.out, Finding{Path: fl.entry.Path, Line: line, Col: col, Severity: sev, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// worker is what one linting goroutine reuses from file to file: a file's
// record is dropped once its findings and facts are taken, so the next
// file is decoded into the same memory.
type worker struct {
	dec record.Decoder
	buf []byte // the last file read, when the view reads into the caller's memory
	fl  fileLint
}

// readFile reads a file of view, into the worker's buffer when the view
// can: the file before it is no longer used.
func (w *worker) readFile(view record.View, path string) ([]byte, error) {
	r, ok := view.(record.IntoReader)
	if !ok {
		return view.ReadFile(path)
	}
	b, err := r.ReadFileInto(path, w.buf)
	if err == nil {
		w.buf = b[:0] // for the next file: its memory, or larger
	}
	return b, err
}

// lintFile lints one entry. Its findings and facts keep nothing of the
// decoded record, whose memory the next file reuses.
func (w *worker) lintFile(e record.Entry, idx *index, opts Options) fileResult {
	fl := &w.fl
	*fl = fileLint{entry: e, scratch: fl.scratch[:0]} // the findings are the result's
	loc := record.Classify(e.Path)
	if !fl.pathOK(e, loc) {
		// Not a record, but committed all the same: no secrets there
		// either. Staging is machine-local and never committed.
		if e.Mode == record.ModeRegular && loc.Area != record.AreaStaging && loc.Area != record.AreaRecord {
			if content, ok := fl.read(w, idx.view, opts); ok {
				fl.credentials(content)
			}
		}
		return fileResult{findings: fl.out}
	}
	content, ok := fl.read(w, idx.view, opts)
	if !ok {
		return fileResult{findings: fl.out}
	}
	rec, fieldErrs, err := w.dec.Decode(e.Path, content)
	if err != nil {
		var pe *record.ParseError
		if errors.As(err, &pe) {
			fl.add(Error, pe.Rule, pe.Line, pe.Col, "%s", pe.Msg)
		} else {
			fl.add(Error, RuleFrontmatter, 1, 1, "%v", err)
		}
		fl.credentials(content)
		return fileResult{findings: fl.out}
	}
	for _, fe := range fieldErrs {
		fl.add(Error, fe.Rule, fe.Line, fe.Col, "%s", fe.Msg)
	}
	fl.content(rec, content, idx, opts)
	var f *facts
	if rec.Kind == record.KindDecision {
		// The slug comes from the path; replaced_by from the content.
		f = &facts{path: e.Path, slug: rec.Slug, replacedBy: strings.Clone(rec.ReplacedBy)}
		if rec.ReplacedBy != "" {
			f.rbLine, f.rbCol = rec.Doc.KeyPos(record.KeyReplacedBy)
		}
	}
	return fileResult{findings: fl.out, facts: f}
}

// pathOK reports path-level findings and whether the entry is a record
// file to read.
func (fl *fileLint) pathOK(e record.Entry, loc record.Location) bool {
	switch e.Mode {
	case record.ModeSymlink:
		where := "inside .yoi/"
		if leavesYoi(e.Path, e.Target) {
			where = "leading out of .yoi/"
		}
		fl.add(Error, RulePathSymlink, 1, 1, "symlink to %q %s; records must be regular files", e.Target, where)
		return false
	case record.ModeDir:
		if loc.Area == record.AreaRecord {
			fl.add(Error, RulePathNotFile, 1, 1, "a directory is named like a record; records are files")
		}
		return false
	case record.ModeOther:
		fl.add(Error, RulePathNotFile, 1, 1, "not a regular file")
		return false
	}
	switch loc.Area {
	case record.AreaRecord:
	case record.AreaUnknown:
		fl.add(Warning, RulePathUnknown, 1, 1, "not part of the .yoi/ layout (memory/summary.md, memory/decisions/<slug>.md, memory/requests/<slug>.md, knowledge/<slug>.md); ignored")
		return false
	default:
		return false
	}
	if loc.SlugErr != nil {
		fl.add(Error, RulePathSlug, 1, 1, "file name: %v", loc.SlugErr)
	}
	return true
}

func leavesYoi(p, target string) bool {
	if path.IsAbs(target) || strings.HasPrefix(target, "/") {
		return true
	}
	joined := path.Join(path.Dir(p), target)
	return joined == ".." || strings.HasPrefix(joined, "../")
}

func (fl *fileLint) read(w *worker, view record.View, opts Options) ([]byte, bool) {
	if opts.MaxFileBytes > 0 && fl.entry.Size > opts.MaxFileBytes {
		fl.tooLarge(fl.entry.Size, opts)
		return nil, false
	}
	content, err := w.readFile(view, fl.entry.Path)
	if err != nil {
		fl.readError(err, opts)
		return nil, false
	}
	if opts.MaxFileBytes > 0 && int64(len(content)) > opts.MaxFileBytes {
		fl.tooLarge(int64(len(content)), opts)
		return nil, false
	}
	return content, true
}

// readError reports a file that could not be read. (Apart from read: the
// target errors.As needs would escape, an allocation for every file.)
func (fl *fileLint) readError(err error, opts Options) {
	var tl *record.TooLargeError
	switch {
	case errors.As(err, &tl):
		// The listing did not know the size (a staged blob) or the file
		// grew since: the read refused it and says how large it is.
		fl.tooLarge(tl.Size, opts)
	default:
		fl.add(Error, RuleReadError, 1, 1, "cannot read: %v", err)
	}
}

// tooLarge reports a file over yoimem.lint.maxFileBytes with its real size.
func (fl *fileLint) tooLarge(size int64, opts Options) {
	tl := record.TooLargeError{Size: size, Limit: opts.MaxFileBytes, Setting: "yoimem.lint.maxFileBytes"}
	fl.add(Error, RuleFileSize, 1, 1, "%s; not parsed", tl.Reason())
}

func (fl *fileLint) content(rec *record.Record, content []byte, idx *index, opts Options) {
	if rec.Doc.Newline() == "\r\n" {
		fl.add(Warning, RuleLineEndings, 1, 1, "CRLF line endings; git-yoimem keeps them, but LF gives cleaner diffs")
	}
	fl.credentials(content)
	fl.parsedCredentials(rec)
	fl.binary(content)
	fl.idFields(rec)
	chars := charCount(content, opts.Caps[rec.Kind])
	if limit := opts.Caps[rec.Kind]; limit > 0 && chars > limit {
		fl.add(Error, RuleCharCap, 1, 1, "%d characters, over the %s cap of %d (yoimem.lint.%sChars); split it or tighten the text", chars, rec.Kind, limit, rec.Kind)
	}
	if rec.Kind == record.KindKnowledge && rec.ModelInvokation && opts.DescriptionChars > 0 {
		if n := utf8.RuneCountInString(rec.Description); n > opts.DescriptionChars {
			line, col := rec.Doc.KeyPos(record.KeyDescription)
			fl.add(Error, RuleDescriptionLen, line, col, "description has %d characters; with model_invokation: true it may have at most %d", n, opts.DescriptionChars)
		}
	}
	fl.sourcesLong(rec, opts)
	fl.lowImportance(rec, content, opts)
	fl.refs(rec, idx)
}

// lowImportance weighs a record's size (estimated tokens) against its
// usage: a large record used below the protection frequency, or not used
// over the unused span, has room to compress. Unknown usage is neutral;
// the summary is always in context, never invoked, and is not weighed.
func (fl *fileLint) lowImportance(rec *record.Record, content []byte, opts Options) {
	limit := opts.LowImportanceTokens
	// An estimate is at most one token a byte: a smaller file is not read.
	if opts.Usage == nil || limit <= 0 || int64(len(content)) <= limit || rec.Kind == record.KindSummary {
		return
	}
	// Usage is a lookup; the estimate reads every byte: ask usage first.
	u := opts.Usage(rec)
	if !u.Known || !u.Unused && u.Frequency >= opts.ProtectFrequency {
		return
	}
	size := tokens.Estimate(content)
	if size <= limit {
		return
	}
	switch {
	case u.Unused:
		fl.add(Warning, RuleLowImportance, 1, 1, "about %s tokens, not used in the last %s input tokens: room to compress", quote.Thousands(size), quote.Thousands(u.Idle))
	case u.Frequency < opts.ProtectFrequency:
		fl.add(Warning, RuleLowImportance, 1, 1, "about %s tokens, used %.2f times per million input tokens (below %.2f): room to compress", quote.Thousands(size), u.Frequency, opts.ProtectFrequency)
	}
}

func (fl *fileLint) sourcesLong(rec *record.Record, opts Options) {
	key, n := record.KeySources, len(rec.Sources)
	if rec.Kind == record.KindKnowledge {
		key, n = record.KeyLastSources, len(rec.LastSources)
	}
	if opts.SourcesWarn > 0 && n > opts.SourcesWarn {
		line, col := rec.Doc.KeyPos(key)
		fl.add(Warning, RuleSourcesLong, line, col, "%s has %d entries (more than %d); keep the latest, git history keeps the rest", key, n, opts.SourcesWarn)
	}
}

func (fl *fileLint) refs(rec *record.Record, idx *index) {
	body := rec.Body()
	if bytes.IndexByte(body, '#') < 0 {
		return
	}
	first := rec.Doc.BodyLine()
	for _, r := range record.Refs(body) {
		if !idx.has(record.KindKnowledge, r.Slug) {
			fl.add(Error, RuleKnowledgeRef, first+r.Line-1, r.Col, "#%s names no knowledge record (knowledge/%s.md); fix the slug, or put it in `backticks` if it is not a reference", r.Slug, r.Slug)
		}
	}
}

func (fl *fileLint) credentials(content []byte) {
	for _, m := range secrets.Find(content) {
		line, col := position(content, m.Start)
		fl.add(Error, RuleCredential, line, col, "%s; memory is committed and pushed, so remove it (and rotate it if it was real)", looksLike(m.Kind))
	}
}

// charCount counts runes only when the byte length could exceed a limit:
// a file is never longer in characters than in bytes.
func charCount(b []byte, limits ...int) int {
	for _, l := range limits {
		if l > 0 && len(b) > l {
			return utf8.RuneCount(b)
		}
	}
	return len(b)
}

func position(b []byte, off int) (line, col int) {
	line = bytes.Count(b[:off], []byte("\n")) + 1
	start := bytes.LastIndexByte(b[:off], '\n') + 1
	return line, utf8.RuneCount(b[start:off]) + 1
}
