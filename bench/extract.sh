#!/usr/bin/env bash
# Extract benchmarks on a generated 50 MB tool-heavy Claude Code transcript,
# each pair measured in one run:
#   - rendering the whole transcript for the model (git yoimem extract
#     --dry-run) against jq -c . FILE (goal <= 0.5, peak memory < 256 MiB);
#   - the trigger check (extract --check) after one more turn is appended,
#     against that full parse (goal <= 0.05: it reads only the new turn);
#   - what would be sent to the model against the transcript's bytes (goal
#     <= 20%).
# The script reports; it does not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

MB=${BENCH_TRANSCRIPT_MB:-50}

command -v jq >/dev/null || bench_die "jq is not on PATH; install it with: apt-get install -y jq"
bench_init
bench_build
bench_isolate

repo=$BENCH_TMP/repo
log=$BENCH_TMP/session.jsonl
mkdir -p "$repo"
git -C "$repo" init -q
(cd -- "$repo" && git yoimem init --no-hooks >/dev/null)
gentranscript -o "$log" -mb "$MB" -tool-heavy -seed "$BENCH_SEED" >/dev/null
log_bytes=$(wc -c <"$log")
log_bytes=${log_bytes//[[:space:]]/}

bench_timeit 0 "$repo" jq -c . "$log"
jq_ms=$TIME_MEDIAN_MS
bench_timeit 0 "$repo" git yoimem extract --log "$log" --dry-run
render_ms=$TIME_MEDIAN_MS render_rss=$TIME_RSS_KIB
(cd -- "$repo" && git yoimem extract --log "$log" --dry-run 2>/dev/null) >"$BENCH_TMP/rendered"
sent_bytes=$(wc -c <"$BENCH_TMP/rendered")
sent_bytes=${sent_bytes//[[:space:]]/}

# The check: state saved at the end of the log, then one more turn. Each
# timed run restores that state first (a copy of a small file, in sh).
(cd -- "$repo" && git yoimem extract --log "$log" --check >/dev/null)
state=$(ls "$repo"/.git/yoimem/extract/*.json)
cp -- "$state" "$BENCH_TMP/state.saved"
gentranscript -o "$log" -append-turn -seed 2 >/dev/null
# Agent hooks run the binary itself (no git in between).
bench_timeit 0 "$repo" sh -c 'cp -- "$1" "$2" && exec git-yoimem extract --log "$3" --check' sh "$BENCH_TMP/state.saved" "$state" "$log"
check_ms=$TIME_MEDIAN_MS
bench_timeit 0 "$repo" sh -c 'cp -- "$1" "$2"' sh "$BENCH_TMP/state.saved" "$state"
cp_ms=$TIME_MEDIAN_MS
bench_timeit 0 "$repo" git-yoimem --version
start_ms=$TIME_MEDIAN_MS
check_net=$(awk -v a="$check_ms" -v b="$cp_ms" 'BEGIN { printf "%.3f", a - b }')

printf 'transcript: %s bytes (tool-heavy Claude Code, bench/gentranscript)\n' "$log_bytes"
printf 'jq -c . FILE: median %s ms\n' "$(bench_ms "$jq_ms")"
printf 'git yoimem extract --dry-run (read + render all): median %s ms, peak RSS %s MiB (goal < 256)\n' "$(bench_ms "$render_ms")" "$(bench_mib "$render_rss")"
printf 'ratio render/jq: %s (goal <= 0.5)\n' "$(bench_ratio "$render_ms" "$jq_ms")"
printf 'git-yoimem extract --check after one more turn: median %s ms, less %s ms of restoring the state first: %s ms (of which starting any git-yoimem process: %s ms)\n' "$(bench_ms "$check_ms")" "$(bench_ms "$cp_ms")" "$(bench_ms "$check_net")" "$(bench_ms "$start_ms")"
printf 'ratio check/full parse: %s (goal <= 0.05)\n' "$(bench_ratio "$check_net" "$render_ms")"
printf 'sent to the model: %s bytes, %s%% of the transcript (goal <= 20%%)\n' "$sent_bytes" "$(awk -v a="$sent_bytes" -v b="$log_bytes" 'BEGIN { printf "%.2f", 100 * a / b }')"
