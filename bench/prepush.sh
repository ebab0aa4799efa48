#!/usr/bin/env bash
# The pre-push hook on a push of many refs: `git push --tags` of
# BENCH_TAGS new tags (default 2000, on as many new commits) to a local
# bare remote, with the hook installed and without it (core.hooksPath
# pointing at an empty directory). Each run pushes to a fresh copy of the
# remote, whose copy time is in both numbers.
# The script reports; it does not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

BENCH_TAGS=${BENCH_TAGS:-2000}
[[ $BENCH_TAGS =~ ^[0-9]+$ ]] || bench_die "BENCH_TAGS must be a whole number, got '$BENCH_TAGS'"

bench_init
bench_build
bench_isolate

repo=$BENCH_TMP/push
git init -q --bare "$BENCH_TMP/remote.tpl"
git init -q "$repo"
git -C "$repo" remote add origin ../remote.git
(cd "$repo" && git yoimem init --no-hooks 2>/dev/null && git add -A && git commit -q -m 'memory layout')
cp -r "$BENCH_TMP/remote.tpl" "$BENCH_TMP/remote.git"
git -C "$repo" push -q origin main
rm -rf "$BENCH_TMP/remote.tpl" && mv "$BENCH_TMP/remote.git" "$BENCH_TMP/remote.tpl"
# BENCH_TAGS commits on main, a tag on each, in one fast-import.
head=$(git -C "$repo" rev-parse HEAD)
{
	for ((i = 1; i <= BENCH_TAGS; i++)); do
		printf 'commit refs/heads/main\nmark :%d\ncommitter bench <b@example.invalid> %d +0000\ndata 7\ncommit\n' "$i" $((1772359200 + i))
		((i == 1)) && printf 'from %s\n' "$head"
		printf 'M 100644 inline src/file.txt\ndata %d\n%d\n\n' $((${#i} + 1)) "$i"
	done
	for ((i = 1; i <= BENCH_TAGS; i++)); do
		printf 'reset refs/tags/t%d\nfrom :%d\n\n' "$i" "$i"
	done
} | git -C "$repo" fast-import --quiet
printf '#!/bin/sh\nexec git yoimem hook pre-push "$@"\n' >"$repo/.git/hooks/pre-push"
chmod +x "$repo/.git/hooks/pre-push"
mkdir -p "$BENCH_TMP/nohooks"

push='rm -rf ../remote.git && cp -r ../remote.tpl ../remote.git && git push -q origin main --tags'
bench_timeit 0 "$repo" sh -c "$push"
with=$TIME_MEDIAN_MS
bench_timeit 0 "$repo" sh -c "git config core.hooksPath '$BENCH_TMP/nohooks' && $push; git config --unset core.hooksPath"
without=$TIME_MEDIAN_MS

printf 'git push of %s new tags on %s new commits\n' "$BENCH_TAGS" "$BENCH_TAGS"
printf 'with the pre-push hook:    median %s ms\n' "$(bench_ms "$with")"
printf 'without hooks:             median %s ms\n' "$(bench_ms "$without")"
printf 'the hook adds:             %s ms\n' "$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.1f", a - b }')"
