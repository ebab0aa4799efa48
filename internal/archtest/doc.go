// Package archtest checks the import rules of docs/architecture.md with
// go list: which of git-yoimem's packages each may import, and that only
// the model helper links the model SDKs. It has no code of its own.
package archtest
