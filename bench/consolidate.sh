#!/usr/bin/env bash
# One consolidation run over BENCH_ENTRIES (100) staged entries on the
# generated corpus: lock, input (the base snapshot), the engine, the lint of
# the whole resulting memory, the memory commit, its note and the cleanup.
# Goals (issue): under 1 s and 100 MiB. The script reports; it does not
# judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

BENCH_ENTRIES=${BENCH_ENTRIES:-100}
[[ $BENCH_ENTRIES =~ ^[0-9]+$ ]] || bench_die "BENCH_ENTRIES must be a whole number, got '$BENCH_ENTRIES'"
BENCH_ENGINE=${BENCH_ENGINE:-rules}
[[ $BENCH_ENGINE == rules || $BENCH_ENGINE == fold ]] || bench_die "BENCH_ENGINE must be rules or fold, got '$BENCH_ENGINE'"

bench_init
bench_build
(cd -- "$BENCH_ROOT" && go build -o "$BENCH_BIN/gitbench" ./bench/gitbench) || bench_die "cannot build gitbench"
bench_isolate
bench_corpus
bench_pack

printf 'corpus: %s records, %s bytes, shapes %s\n' "$BENCH_RECORDS" "$BENCH_BYTES" "$BENCH_SHAPES"
gitbench consolidate -repo "$BENCH_REPO" -runs "$BENCH_RUNS" -entries "$BENCH_ENTRIES" -engine "$BENCH_ENGINE"
if [[ $BENCH_ENGINE == rules ]]; then
	# The command itself, as users run it.
	gitbench consolidate-cli -repo "$BENCH_REPO" -runs "$BENCH_RUNS" -entries "$BENCH_ENTRIES" -bin "$BENCH_BIN/git-yoimem"
fi
