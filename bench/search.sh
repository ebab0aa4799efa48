#!/usr/bin/env bash
# Retrieval benchmarks on the generated corpus, each measured in one run:
#   - git yoimem search knowledge WORD against rg -j1 -i -c WORD .yoi/knowledge
#     (goal <= 1.0);
#   - git yoimem context (300 model-invocable records) against rg over the
#     same files (goal <= 1.0).
# The script reports; it does not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

WORD=${BENCH_WORD:-retry}

bench_require_rg
bench_init
bench_build
bench_isolate
bench_corpus

bench_timeit 0 "$BENCH_REPO" git yoimem search knowledge "$WORD"
search_ms=$TIME_MEDIAN_MS search_rss=$TIME_RSS_KIB
bench_timeit 0,1 "$BENCH_REPO" rg -j1 -i -c "$WORD" .yoi/knowledge
rg_ms=$TIME_MEDIAN_MS

# the files the context reads: the summary and the invocable knowledge
(cd -- "$BENCH_REPO" && rg -l -j1 '^model_invokation: true' .yoi/knowledge) >"$BENCH_TMP/invocable"
printf '%s\n' .yoi/memory/summary.md >>"$BENCH_TMP/invocable"
bench_timeit 0 "$BENCH_REPO" git yoimem context
context_ms=$TIME_MEDIAN_MS
bench_timeit 0,1 "$BENCH_REPO" sh -c 'xargs rg -j1 -c description < "$1"' sh "$BENCH_TMP/invocable"
rgctx_ms=$TIME_MEDIAN_MS

printf 'corpus: %s records, %s bytes; %s files for the context\n' "$BENCH_RECORDS" "$BENCH_BYTES" "$(wc -l <"$BENCH_TMP/invocable")"
printf 'git yoimem search knowledge %s: median %s ms, peak RSS %s MiB\n' "$WORD" "$(bench_ms "$search_ms")" "$(bench_mib "$search_rss")"
printf 'rg -j1 -i -c %s .yoi/knowledge: median %s ms\n' "$WORD" "$(bench_ms "$rg_ms")"
printf 'ratio search/rg: %s (goal <= 1.0)\n' "$(bench_ratio "$search_ms" "$rg_ms")"
printf 'git yoimem context: median %s ms; rg over the same files: median %s ms\n' "$(bench_ms "$context_ms")" "$(bench_ms "$rgctx_ms")"
printf 'ratio context/rg: %s (goal <= 1.0)\n' "$(bench_ratio "$context_ms" "$rgctx_ms")"
