//go:build unix && !linux

package catcache

import "syscall"

const mapFlags = syscall.MAP_SHARED
