#!/usr/bin/env bash
# Retrieval benchmarks on the generated corpus, each pair measured in one run:
#   - git yoimem search knowledge ABSENT against rg -j1 -i -c ABSENT
#     .yoi/knowledge, with a word no file holds (every record is looked at;
#     rg reads every byte and reports nothing), the machine-local cache cold
#     (removed before each run) and warm (goal <= 1.0 cold, 0.5 warm); and,
#     for information, with a word most records hold (hits past the limit
#     are only counted) against rg for that word;
#   - git yoimem context (300 model-invocable records) against rg for the
#     absent word over the same files (goal <= 1.0);
#   - the median knowledge_search round trip on a running git yoimem mcp.
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
bench_absent_word
RARE=$BENCH_ABSENT

cache=$BENCH_REPO/.git/yoimem/cache
bench_timeit 0,1 "$BENCH_REPO" rg -j1 -i -c "$WORD" .yoi/knowledge
rg_ms=$TIME_MEDIAN_MS
bench_timeit 1 "$BENCH_REPO" rg -j1 -i -c "$RARE" .yoi/knowledge
rgrare_ms=$TIME_MEDIAN_MS rgrare_cpu=$TIME_CPU_MS
bench_timeit 0 "$BENCH_REPO" sh -c 'rm -rf "$1"; exec git yoimem search knowledge "$2"' sh "$cache" "$RARE"
cold_ms=$TIME_MEDIAN_MS cold_cpu=$TIME_CPU_MS
bench_timeit 0 "$BENCH_REPO" git yoimem search knowledge "$RARE"
rare_ms=$TIME_MEDIAN_MS rare_cpu=$TIME_CPU_MS search_rss=$TIME_RSS_KIB
bench_timeit 0 "$BENCH_REPO" git yoimem search knowledge "$WORD"
search_ms=$TIME_MEDIAN_MS

# the files the context reads: the summary and the invocable knowledge (the
# mixed corpus also spells the key model_invocation, and may follow the
# value with a comment or a CR)
invocable_re='^model_invo[ck]ation: true\b'
(cd -- "$BENCH_REPO" && rg -l -j1 "$invocable_re" .yoi/knowledge) >"$BENCH_TMP/invocable"
nknow=$(find "$BENCH_REPO/.yoi/knowledge" -name '*.md' | wc -l)
want=$((BENCH_INVOCABLE < nknow ? BENCH_INVOCABLE : nknow))
ninv=$(wc -l <"$BENCH_TMP/invocable")
((ninv == want)) || bench_die "found $ninv model-invocable knowledge records with /$invocable_re/, want $want"
printf '%s\n' .yoi/memory/summary.md >>"$BENCH_TMP/invocable"
mapfile -t ctxfiles <"$BENCH_TMP/invocable"
bench_timeit 0 "$BENCH_REPO" git yoimem context
context_ms=$TIME_MEDIAN_MS context_cpu=$TIME_CPU_MS
bench_timeit 1 "$BENCH_REPO" rg -j1 -c -i "$RARE" "${ctxfiles[@]}"
rgctx_ms=$TIME_MEDIAN_MS rgctx_cpu=$TIME_CPU_MS
# the same job done with rg: find the invocable records among all knowledge
bench_timeit 0,1 "$BENCH_REPO" rg -j1 -l "$invocable_re" .yoi/knowledge .yoi/memory/summary.md
rgfind_ms=$TIME_MEDIAN_MS

# the floors of a stat-validated cache: a git-yoimem process through git
# doing nothing, and one lstat per knowledge file (find, one process)
bench_timeit 0 "$BENCH_REPO" git yoimem --version
start_ms=$TIME_MEDIAN_MS start_cpu=$TIME_CPU_MS
bench_timeit 0 "$BENCH_REPO" find .yoi/knowledge -printf '%s %T@ %C@ %i\n'
stat_ms=$TIME_MEDIAN_MS stat_cpu=$TIME_CPU_MS
# the same listing as search and context make it (getdents, one fstatat
# per file relative to the directory, on two threads), in process
(cd -- "$BENCH_ROOT" && go build -o "$BENCH_BIN/gitbench" ./bench/gitbench) || bench_die "cannot build gitbench"
listing=$(gitbench listing -repo "$BENCH_REPO" -runs "$BENCH_RUNS" -dir knowledge)
list_ms=$(awk '{ for (i = 1; i < NF; i++) if ($i == "median") print $(i + 1) }' <<<"$listing")

mcp=$(cd -- "$BENCH_REPO" && mcpbench -n "$((BENCH_RUNS * 10))" "$WORD" "$RARE")

printf 'corpus: %s records, %s bytes, shapes %s; %s files for the context\n' "$BENCH_RECORDS" "$BENCH_BYTES" "$BENCH_SHAPES" "${#ctxfiles[@]}"
printf 'baseline, rg for a word no file holds: rg -j1 -i -c %s .yoi/knowledge: median %s ms (CPU %s ms)\n' "$RARE" "$(bench_ms "$rgrare_ms")" "$(bench_ms "$rgrare_cpu")"
printf 'rg -j1 -i -c %s .yoi/knowledge (a common word, for the hit-limit line only): median %s ms\n' "$WORD" "$(bench_ms "$rg_ms")"
printf 'git yoimem search knowledge %s (no hits), cache cold: median %s ms (CPU %s ms), ratio %s (goal <= 1.0); of CPU times: %s\n' "$RARE" "$(bench_ms "$cold_ms")" "$(bench_ms "$cold_cpu")" "$(bench_ratio "$cold_ms" "$rgrare_ms")" "$(bench_ratio "$cold_cpu" "$rgrare_cpu")"
printf 'git yoimem search knowledge %s (no hits), cache warm: median %s ms (CPU %s ms), ratio %s (goal <= 0.5); of CPU times: %s; peak RSS %s MiB\n' "$RARE" "$(bench_ms "$rare_ms")" "$(bench_ms "$rare_cpu")" "$(bench_ratio "$rare_ms" "$rgrare_ms")" "$(bench_ratio "$rare_cpu" "$rgrare_cpu")" "$(bench_mib "$search_rss")"
printf 'git yoimem search knowledge %s (hit limit), cache warm: median %s ms, ratio %s\n' "$WORD" "$(bench_ms "$search_ms")" "$(bench_ratio "$search_ms" "$rg_ms")"
printf 'git yoimem context: median %s ms (CPU %s ms); baseline, rg -j1 -c -i %s over the same files: median %s ms (CPU %s ms)\n' "$(bench_ms "$context_ms")" "$(bench_ms "$context_cpu")" "$RARE" "$(bench_ms "$rgctx_ms")" "$(bench_ms "$rgctx_cpu")"
printf 'ratio context/rg: %s (goal <= 1.0); of CPU times: %s\n' "$(bench_ratio "$context_ms" "$rgctx_ms")" "$(bench_ratio "$context_cpu" "$rgctx_cpu")"
printf 'rg finding the invocable records among all knowledge (the same job): median %s ms; ratio context/that: %s\n' "$(bench_ms "$rgfind_ms")" "$(bench_ratio "$context_ms" "$rgfind_ms")"
printf 'floor: git yoimem --version: median %s ms (CPU %s ms); find .yoi/knowledge -printf (one lstat per file): median %s ms (CPU %s ms)\n' "$(bench_ms "$start_ms")" "$(bench_ms "$start_cpu")" "$(bench_ms "$stat_ms")" "$(bench_ms "$stat_cpu")"
printf 'floor: %s\n' "$listing"
floor_ms=$(awk -v a="$start_ms" -v b="$list_ms" 'BEGIN { print a + b }')
printf 'floor of a stat-validated cache of knowledge/ (--version + that listing): %s ms; over the search baseline %s, over the context baseline %s\n' "$(bench_ms "$floor_ms")" "$(bench_ratio "$floor_ms" "$rgrare_ms")" "$(bench_ratio "$floor_ms" "$rgctx_ms")"
printf 'mcp knowledge_search round trip (%s and %s alternating): %s\n' "$WORD" "$RARE" "$mcp"
