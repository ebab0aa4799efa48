#!/usr/bin/env bash
# Lint benchmark: `git yoimem lint` over a generated corpus (mixed shapes by
# default, BENCH_SHAPES) against a plain single-threaded ripgrep scan of the
# same files for a word no file holds (every byte read, nothing reported).
# Goals: lint at most 3x `rg -j1 -c -i ABSENT .yoi`; peak memory under
# 100 MiB (256 MiB at 100,000 records).
# The script reports; it does not judge: it exits 0 whatever the numbers,
# and non-zero only when a tool fails unexpectedly. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

bench_require_rg
bench_init
bench_build
bench_isolate
bench_corpus

# One untimed run first: the corpus should lint clean, but findings (exit 1)
# do not stop the measurement. Anything else is a failure of the tool.
set +e
(cd -- "$BENCH_REPO" && git yoimem lint) </dev/null >"$BENCH_TMP/lint.out" 2>&1
rc=$?
set -e
case $rc in
0) ;;
1)
	bench_log "warning: git yoimem lint reported findings on the corpus (exit 1); first lines:"
	head -n 10 "$BENCH_TMP/lint.out" >&2
	;;
*)
	bench_log "git yoimem lint failed (exit $rc):"
	tail -n 20 "$BENCH_TMP/lint.out" >&2
	exit 1
	;;
esac

bench_absent_word
mem_goal=100
((BENCH_N >= 100000)) && mem_goal=256

bench_timeit 0,1 "$BENCH_REPO" git yoimem lint
lint_ms=$TIME_MEDIAN_MS lint_rss=$TIME_RSS_KIB lint_cpu=$TIME_CPU_MS
# exit 1 only: a match would mean the word is not absent
bench_timeit 1 "$BENCH_REPO" rg -j1 -c -i "$BENCH_ABSENT" .yoi
rg_ms=$TIME_MEDIAN_MS rg_cpu=$TIME_CPU_MS

printf 'corpus: %s records, %s bytes, shapes %s\n' "$BENCH_RECORDS" "$BENCH_BYTES" "$BENCH_SHAPES"
printf 'git yoimem lint: median %s ms (CPU %s ms), peak RSS %s MiB\n' "$(bench_ms "$lint_ms")" "$(bench_ms "$lint_cpu")" "$(bench_mib "$lint_rss")"
printf 'baseline, rg for a word no file holds: rg -j1 -c -i %s .yoi: median %s ms (CPU %s ms)\n' "$BENCH_ABSENT" "$(bench_ms "$rg_ms")" "$(bench_ms "$rg_cpu")"
printf 'ratio lint/rg: %s (goal <= 3.0); of CPU times: %s (steadier on a busy machine; lint uses every core)\n' "$(bench_ratio "$lint_ms" "$rg_ms")" "$(bench_ratio "$lint_cpu" "$rg_cpu")"
printf 'peak memory: %s MiB (goal < %s)\n' "$(bench_mib "$lint_rss")" "$mem_goal"
