// Package lifeline ties git-yoimem to the git process that started it.
// `git yoimem …` runs git-yoimem as git's child and waits for it; when
// that git is killed (kill -9, a closed terminal's process group, an
// agent's timeout), git-yoimem would run on alone, holding the in-flight
// lock and its model children. Tied, it gets a signal instead, and stops
// as it does on Ctrl-C. A process started by anything else (a shell, an
// agent hook starting a detached background run) is left alone: its
// starter may exit at once, by design.
package lifeline
