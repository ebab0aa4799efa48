// Package eval is the scorer of consolidation (docs/evaluation.md):
// scenarios with known right answers (a .yoi/ tree before, staged
// activity, expectations over the result), each run once end to end in a
// temporary repository through the real consolidation path
// (consolidate/setup), its expectations checked, and the outcome scored
// per scenario, per category and overall, and compared with a committed
// score file.
//
// Load and LoadAll read scenarios strictly; Run runs one; Check checks
// its expectations; Score gathers the checks into a Report, whose
// ScoreFile is what testdata/scenarios/score.*.json hold; Compare lists
// the regressions and improvements between two score files.
package eval
