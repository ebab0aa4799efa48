#!/usr/bin/env bash
# Git benchmarks on the generated corpus, each measured in one run:
#   - the time the pre-commit hook adds to `git commit` with one staged
#     record, over the time of the same commit without hooks (goal <= 0.35
#     in every run);
#   - a 10-record memory-branch commit, over git's own plumbing path with a
#     temporary index (goal <= 0.25).
# The script reports; it does not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

bench_init
bench_build
(cd -- "$BENCH_ROOT" && go build -o "$BENCH_BIN/gitbench" ./bench/gitbench) || bench_die "cannot build gitbench"
bench_isolate
bench_corpus

printf 'corpus: %s records, %s bytes, shapes %s\n' "$BENCH_RECORDS" "$BENCH_BYTES" "$BENCH_SHAPES"
gitbench precommit -repo "$BENCH_REPO" -runs "$BENCH_RUNS"
gitbench memcommit -repo "$BENCH_REPO" -runs "$BENCH_RUNS" -files 10
