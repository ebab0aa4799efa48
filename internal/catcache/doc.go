// Package catcache keeps the examinations of record files (facts from the
// frontmatter and the text lowered for matching) in one machine-local file
// per workspace and scope, validated by each file's stat data the way git's
// index is. A warm cache lets a search or the always-on context stat the
// records instead of reading and parsing them. Nothing here is committed:
// the file lives under the git common directory and is rebuilt whenever it
// is missing, stale or damaged.
package catcache
