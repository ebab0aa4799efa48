// Package config holds the settings of git yoimem: the registry of known
// keys with their types, defaults and docs, the readers for each layer of
// configuration, and the resolution of those layers into effective values.
//
// Every key is named yoimem.<section>.<key> (or yoimem.<key>), for example
// yoimem.search.maxResults, and has the same name in every layer. A value is
// looked up in this order, the first layer that sets it wins:
//
//  1. a command-line flag (-c yoimem.search.maxResults=5), see [ParseFlag];
//  2. git config yoimem.* in any scope git reads (command, worktree, local,
//     global, system), resolved by git itself, see [FromGit];
//  3. the committed file .yoi/config, in git-config syntax like git-lfs's
//     .lfsconfig, see [ParseFile];
//  4. the built-in default of the key, see [Keys].
//
// Within a layer the last setting of a key wins, as in git. Names follow
// git's rules: the section ("yoimem") and the last part (the key) are
// case-insensitive, the middle part (the subsection, "search") is
// case-sensitive. The camelCase names of [Keys] are the canonical ones used
// for display.
//
// [Resolve] validates every value of a known key against the key's type,
// whichever layer it comes from, and reports unknown yoimem.* keys as
// warnings with the closest known key as a suggestion.
//
// Types: Int and Size take a decimal whole number >= 0 with an optional
// k, m or g suffix (base 1024), Float takes a number >= 0, Bool takes
// true/false, yes/no, on/off or 1/0 in any case (a key written without "="
// is true and an empty value is false, as in git), String takes anything.
//
// The package runs no process itself: [FromGit] calls git through a
// [GitRunner] supplied by the caller, and [ParseFile] is a pure parser built
// on the gcfg scanner that go-git's config decoder uses.
package config
