// Package codex is git-yoimem's side of OpenAI's Codex CLI: Decode reads
// a hook's JSON input (.codex/hooks.json) into an agent.Event and
// DecodeNotify the legacy notify payload; Encode writes an
// agent.Response in the output shape Codex reads for the event;
// FindRollout finds a session's rollout under $CODEX_HOME/sessions; and
// MergeHooks, MergeConfig and MergeAgentsMD add our entries to
// hooks.json, config.toml and AGENTS.md (and the Unmerge functions take
// them out again) without touching the user's. It does no I/O of its own
// but FindRollout's reading of directories: the caller reads standard
// input and writes the files.
//
// The payload and output shapes follow Codex's source (codex-rs/hooks:
// the generated input schemas, output_parser.rs, which refuses unknown
// output fields and a deny or block without a reason, output_spill.rs
// for the cap, legacy_notify.rs), not a recorded run of the CLI.
package codex
