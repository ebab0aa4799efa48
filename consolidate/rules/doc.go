// Package rules is the deterministic consolidation engine: the one used
// when no model is configured, and offline. It maps staged activity onto
// records through a consolidate.Session and does the mechanical tidy-ups.
// It is pure: it reads the session's snapshot and entries, and its only
// clock is the run's (consolidate.Input.Now).
//
// Mapping (docs/consolidate.md, "The rules engine", shows the records):
//
//   - a decision goes to the decision record of its topic: the slug of
//     the topic (topicSlug), or an existing slug with the same words in
//     any order, case or number (topicKey); a replaced decision's text
//     goes to its live successor. A new topic is a new record;
//   - a discussion goes to the same record; a new topic is status: open,
//     and a later decision on it makes it resolved, the points kept;
//   - a request goes to the request record of its intent, the same way;
//   - an attempt goes under "## Tried" in the record of its topic (see
//     attemptRecord), else to the summary's "## Recent work", which keeps
//     the newest Engine.RecentWork lines;
//   - text on the topic of a locked record goes to the summary's recent
//     work too, and the record is left as it is.
//
// Every write adds a section or a line only when its exact text is not in
// the record yet, and the session attaches the entries' sources, so a
// second run over the same entries changes nothing. Staged text is data:
// each field becomes one line of text (credentials redacted, #slug
// references to no knowledge record escaped), never an instruction.
//
// Tidy-ups: source lists over the linter's sourcesWarn are trimmed, oldest
// first (trim, noisy), and replaced_by chains are collapsed so that each
// names a live record (replace, superseded). A tidy-up the session refuses
// (a locked or protected record) is skipped.
package rules
