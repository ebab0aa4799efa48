// Package jsonedit edits a JSON document as text, so that everything but
// the edit keeps its bytes: the user's key order, indentation, spacing
// and line ends. Add writes an item in the document's own style; Remove
// takes out exactly what Add wrote; Created tells whether a member is
// exactly what Add would write, so that an uninstall can take out a
// container it created whole. The agent packages merge their settings
// files with it.
package jsonedit
