package catcache

import "syscall"

// mapFlags: populate the mapping at once; faulting a search's megabytes in
// page by page costs more.
const mapFlags = syscall.MAP_SHARED | syscall.MAP_POPULATE
