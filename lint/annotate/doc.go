// Package annotate prints lint findings in the formats CI services read:
// GitHub Actions workflow commands (GitHub), which a workflow's log turns
// into annotations on the pull request, and SARIF 2.1.0 (SARIF), which
// code scanning uploads. Both take paths from the repository root, as the
// services resolve them against the checkout; the caller maps a finding's
// .yoi/-relative path to that form.
package annotate
