// Package buildinfo tells the version a binary was built as: the module
// version for a release build, else "devel" with the commit it was built
// from when the build recorded one.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Version is the binary's version without a leading "v".
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromInfo(info)
}

func fromInfo(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return strings.TrimPrefix(v, "v")
}
