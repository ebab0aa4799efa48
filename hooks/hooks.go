package hooks

import (
	"embed"
	"fmt"
)

//go:embed pre-commit pre-push
var scripts embed.FS

// Names returns the hooks git-yoimem installs, in the order it reports
// them.
func Names() []string { return []string{"pre-commit", "pre-push"} }

// Script returns the shim installed as hook name; it panics on a name
// Names does not list, a programming error.
func Script(name string) string {
	b, err := scripts.ReadFile(name)
	if err != nil {
		panic(fmt.Sprintf("hooks: no shim for %q", name))
	}
	return string(b)
}
