// Package setup installs and removes an agent integration: for an agent
// (Agents: Claude Code today) and a scope (project, local, user) it knows
// which files hold our entries and which pure merge of the agent's
// package edits each. A Plan reads every file and computes every merge
// before anything is written (invalid JSON refuses the whole plan, naming
// the file); Apply then writes each changed file atomically, keeping its
// mode, and removes a file that uninstall left as an empty object when it
// was ours alone. Status tells doctor, per file, whether our entries are
// there and current. The package reads and writes only the files its
// table names; paths come from the caller (the repository's top level
// and HOME), never from the process.
package setup
