// Package metrics is the usage side of memory: usage events (every
// explicit read of a record, and the context cost of injected
// descriptions), the token clock that turns wall time into the workspace's
// cumulative input tokens, record frequencies (invokes per million input
// tokens over the last few invokes), the protection rule and the
// knowledge-candidate report. It is pure: it computes over values; the
// journals and the committed metrics files are read and written elsewhere.
package metrics
