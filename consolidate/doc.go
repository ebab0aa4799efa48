// Package consolidate turns staged activity (extract's staging files)
// into memory records, as one reviewed commit per run on the memory
// branch. It is built plan-then-apply, as restic's prune and this
// project's githook.Install: Plan works on a snapshot of the tree the
// commit will be written on and returns the change set, the message and
// the consumed staging IDs without writing anything; Apply commits and
// removes the consumed staging files.
//
// Both engines change memory only through a Session: an overlay over the
// base snapshot that enforces the plan's principles for the
// consolidation agent in code, whatever an engine (or a model) asks for:
//
//   - only records under memory/ and knowledge/ (never workflow/, never a
//     locked record: read-only in the working tree or listed in
//     .yoi/config), and every change linted as automation;
//   - decisions are replaced (status: replaced, replaced_by), never
//     deleted; the summary is never removed;
//   - sources are attached by code from the staging entries a change
//     names: decisions and requests accumulate sources, knowledge keeps
//     last_sources; an engine never types them;
//   - a new knowledge record only from records in the knowledge-candidate
//     report;
//   - a protected record (frequency at or above the protection
//     threshold) is never dropped nor heavily compressed (less than
//     Policy.KeepShare of its body kept, or a source removed);
//   - every tidy-up (drop, merge, split, trim, rewrite) carries one or
//     more categories (outdated, superseded, unused, noisy) and a reason.
//
// The session records each accepted change as a memlog.Op; the commit
// message is built from them. Sub-packages: rules (the deterministic
// engine) and agent (the model's tool loop).
//
// A run (Runner.Once; docs/consolidate.md) takes the lock in the staging
// directory (AcquireLock: the holder and the consumed IDs, created
// exclusively; a dead holder's run is finished or redone), reads its
// input (BaseSnapshot of the commit it will be written on, ReadEntries,
// LockedPaths, the usage), plans (NewPlan: the engine, then the lint of
// the whole result) and applies (Plan.Apply: one memory commit on that
// base with the pending usage, its evidence as a git note under
// refs/notes/yoimem, the consumed staging removed). Hooks between the
// stages are the seams the crash tests kill a process at. Runner.Replay
// runs a commit's input again against its parent; Due says whether the
// staging reaches the thresholds.
package consolidate
