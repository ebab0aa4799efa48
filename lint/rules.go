package lint

import "github.com/yoimem/git-yoimem/record"

// Rule ids. They are stable: tools and people filter on them.
const (
	RuleFrontmatter      = record.RuleFrontmatter
	RuleEncoding         = record.RuleEncoding
	RuleYAMLSyntax       = record.RuleYAMLSyntax
	RuleDuplicateKey     = record.RuleDuplicateKey
	RuleYAMLAlias        = record.RuleYAMLAlias
	RuleRequired         = record.RuleRequired
	RuleFieldType        = record.RuleFieldType
	RuleStatusEnum       = record.RuleStatusEnum
	RuleReplacedByReq    = record.RuleReplacedByReq
	RuleAliasConflict    = record.RuleAliasConflict
	RuleReplacedByTarget = "replaced-by-target"
	RuleReplacedByCycle  = "replaced-by-cycle"
	RuleKnowledgeRef     = "knowledge-ref"
	RuleSlugExists       = "slug-exists"
	RuleWorkflowWrite    = "workflow-write"
	RuleWriteArea        = "write-area"
	RuleDescriptionLen   = "description-length"
	RuleCharCap          = "char-cap"
	RuleFileSize         = "file-size"
	RulePathSlug         = "path-slug"
	RulePathUnsafe       = "path-unsafe"
	RulePathSymlink      = "path-symlink"
	RulePathNotFile      = "path-not-file"
	RuleReadError        = "read-error"
	RuleCredential       = "credential"
	RuleBinaryContent    = "binary-content"
	RuleIDField          = "id-field"
	RuleSummaryMissing   = "summary-missing"
	RuleLineEndings      = "line-endings"
	RulePathUnknown      = "path-unknown"
	RuleLowImportance    = "low-importance-size"
	RuleSourcesLong      = "sources-long"
	RuleSimilarSlugs     = "similar-slugs"
	RuleInformationLoss  = "information-loss"
	RuleSourcesDropped   = "sources-dropped"
)

// RuleInfo documents a rule.
type RuleInfo struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
}

// Rules lists every rule with its severity and a one-line summary.
func Rules() []RuleInfo {
	return []RuleInfo{
		{RuleFrontmatter, Error, "the file is empty, has no --- frontmatter, or the frontmatter is not closed"},
		{RuleEncoding, Error, "not UTF-8, starts with a byte-order mark, or uses a bare CR / Unicode line separator in the frontmatter"},
		{RuleYAMLSyntax, Error, "the frontmatter is not a YAML mapping of plain keys"},
		{RuleDuplicateKey, Error, "a key appears twice in one mapping"},
		{RuleYAMLAlias, Error, "YAML anchors and aliases (the stuff of alias bombs) are not allowed"},
		{RuleRequired, Error, "a field the kind requires is missing or empty"},
		{RuleFieldType, Error, "a field has the wrong type (string, true/false, RFC 3339 UTC time, sources list)"},
		{RuleStatusEnum, Error, "a decision's status is not open, resolved or replaced"},
		{RuleReplacedByReq, Error, "status replaced without replaced_by, or replaced_by without status replaced"},
		{RuleAliasConflict, Error, "model_invocation and model_invokation disagree"},
		{RuleReplacedByTarget, Error, "replaced_by names no record, or the record itself"},
		{RuleReplacedByCycle, Error, "a chain of replaced_by links comes back to where it started"},
		{RuleKnowledgeRef, Error, "#slug names no knowledge record"},
		{RuleSlugExists, Error, "creating a record whose slug already exists; update it instead"},
		{RuleWorkflowWrite, Error, "automation may not write under .yoi/workflow/"},
		{RuleWriteArea, Error, "automation may write only records under memory/ and knowledge/"},
		{RuleDescriptionLen, Error, "description longer than yoimem.lint.descriptionChars (default 1024) on a model_invokation: true record"},
		{RuleCharCap, Error, "record longer than its kind's character cap"},
		{RuleFileSize, Error, "file larger than yoimem.lint.maxFileBytes; not parsed"},
		{RulePathSlug, Error, "file name is not a valid slug (kebab-case, at most 64 characters)"},
		{RulePathUnsafe, Error, "path is absolute, contains .. or is otherwise not a clean path inside .yoi/"},
		{RulePathSymlink, Error, "symlink under .yoi/ (records are regular files; links may lead out of .yoi/)"},
		{RulePathNotFile, Error, "a directory or special file where a record should be"},
		{RuleReadError, Error, "the file could not be read"},
		{RuleCredential, Error, "looks like a credential (a token, key, password or private-key block); memory is committed and pushed"},
		{RuleBinaryContent, Error, "a NUL byte or another control character (not tab, LF or CR) in a record: records are text"},
		{RuleIDField, Error, "an id: or name: field; a record's ID is its file name"},
		{RuleSummaryMissing, Error, ".yoi/ has no memory/summary.md (the always-on context starts from it)"},
		{RuleLineEndings, Warning, "CRLF line endings (kept as they are; git diff shows ^M)"},
		{RulePathUnknown, Warning, "file the .yoi/ layout does not name; it is ignored"},
		{RuleLowImportance, Warning, "rarely used or unused record that costs many tokens: room to compress"},
		{RuleSourcesLong, Warning, "more sources than yoimem.lint.sourcesWarn; keep the latest, git history keeps the rest"},
		{RuleSimilarSlugs, Warning, "slugs that look alike: merge candidates"},
		{RuleInformationLoss, Warning, "a rewrite removes much of the previous text"},
		{RuleSourcesDropped, Warning, "an update drops sources the record had"},
	}
}
