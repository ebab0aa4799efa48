#!/usr/bin/env bash
# Agent hook benchmarks: `git yoimem hook claude-code <event>` as Claude
# Code runs it (the binary itself, its payload on stdin), on the generated
# 10,000-record corpus with a 50 MB Claude Code transcript, each event
# BENCH_RUNS times; prints the median and peak RSS per event. Targets
# (issue 12): every handler under 100 ms median; session-start,
# user-prompt-submit and pre-tool-use under 30 ms. The turn-ending events
# start a detached background run each time (the extract check of the
# transcript, no model: the threshold is out of reach); only the hook's
# own time is measured. Floors: `git-yoimem --version` and `cat` of the
# summary, both through sh. BENCH_BASELINE_BIN=PATH times another
# git-yoimem binary (e.g. main's) on the same corpus, runs alternating
# with this one's, for a before/after in one run. The script reports; it does
# not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

MB=${BENCH_TRANSCRIPT_MB:-50}

bench_init
bench_build
bench_isolate
bench_corpus
git -C "$BENCH_REPO" config yoimem.extract.tokenThreshold 1000000000000

log=$BENCH_TMP/transcript.jsonl
gentranscript -o "$log" -mb "$MB" -tool-heavy -seed "$BENCH_SEED" >/dev/null
log_bytes=$(wc -c <"$log")
log_bytes=${log_bytes//[[:space:]]/}
session=00893aaf-19fa-41d2-8238-13269b9b3ca0
slug=$(find "$BENCH_REPO/.yoi/knowledge" -name '*.md' -print -quit)
slug=$(basename -- "$slug" .md)

# payload EVENT [EXTRA-JSON-FIELDS] writes the hook input to $BENCH_TMP/EVENT.json
payload() {
	printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"%s"%s}\n' \
		"$session" "$log" "$BENCH_REPO" "$1" "${2:-}" >"$BENCH_TMP/$1.json"
}
payload SessionStart ',"source":"startup"'
payload UserPromptSubmit ",\"prompt\":\"fix the retries, see #$slug\""
payload PreToolUse ',"tool_name":"Bash","tool_input":{"command":"echo x >> .yoi/memory/summary.md"}'
payload Stop
payload PreCompact ',"trigger":"auto"'
payload SessionEnd ',"reason":"prompt_input_exit"'

printf 'corpus: %s records, %s bytes, shapes %s; transcript: %s bytes (tool-heavy Claude Code)\n' "$BENCH_RECORDS" "$BENCH_BYTES" "$BENCH_SHAPES" "$log_bytes"
baseline=
if [[ -n ${BENCH_BASELINE_BIN:-} ]]; then
	[[ -x $BENCH_BASELINE_BIN ]] || bench_die "BENCH_BASELINE_BIN=$BENCH_BASELINE_BIN is not executable"
	baseline=$BENCH_BIN/git-yoimem-baseline
	cp -- "$BENCH_BASELINE_BIN" "$baseline"
fi
# hook BIN ARG EVENT [AGENT] times one event with one binary and prints it
hook() {
	local agent=${4:-claude-code}
	bench_timeit 0 "$BENCH_REPO" sh -c 'exec "$1" hook "$4" "$2" <"$3" >/dev/null' sh "$1" "$2" "$BENCH_TMP/$3.json" "$agent"
	printf 'hook %s %s: median %s ms, min %s ms, CPU %s ms, peak RSS %s MiB\n' "$agent" "$2" "$(bench_ms "$TIME_MEDIAN_MS")" "$(bench_ms "$TIME_MIN_MS")" "$(bench_ms "$TIME_CPU_MS")" "$(bench_mib "$TIME_RSS_KIB")"
}
# median reads numbers, one a line, and prints their median
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# versus ARG EVENT times one event with the baseline and this binary in
# turn, one run each at a time and each first every other time, so that
# the machine's load (and the background runs the last hook started)
# moves both alike, and prints both
versus() {
	local bin label i kv out
	for label in baseline this; do
		: >"$BENCH_TMP/$label.wall"
		: >"$BENCH_TMP/$label.cpu"
	done
	local order
	for ((i = 0; i < BENCH_WARMUP + BENCH_RUNS; i++)); do
		order='baseline this'
		((i % 2)) && order='this baseline' # neither always runs second
		for label in $order; do
			bin=$BENCH_BIN/git-yoimem
			[[ $label == baseline ]] && bin=$baseline
			out=$(timeit -n 1 -warmup 0 -C "$BENCH_REPO" -- sh -c 'exec "$1" hook claude-code "$2" <"$3" >/dev/null' sh "$bin" "$1" "$BENCH_TMP/$2.json") ||
				bench_die "timing failed: $label hook claude-code $1"
			((i < BENCH_WARMUP)) && continue
			for kv in $out; do
				case $kv in
				median_ms=*) echo "${kv#*=}" >>"$BENCH_TMP/$label.wall" ;;
				cpu_ms=*) echo "${kv#*=}" >>"$BENCH_TMP/$label.cpu" ;;
				esac
			done
		done
	done
	for label in baseline this; do
		printf '%-8s hook claude-code %s: median %s ms, CPU %s ms (runs alternated)\n' "$label" "$1" "$(bench_ms "$(median <"$BENCH_TMP/$label.wall")")" "$(bench_ms "$(median <"$BENCH_TMP/$label.cpu")")"
	done
}
for pair in session-start:SessionStart user-prompt-submit:UserPromptSubmit pre-tool-use:PreToolUse stop:Stop pre-compact:PreCompact session-end:SessionEnd; do
	arg=${pair%%:*} event=${pair#*:}
	if [[ -n $baseline ]]; then
		versus "$arg" "$event"
	else
		hook "$BENCH_BIN/git-yoimem" "$arg" "$event"
	fi
done
# Codex's hooks: the same payload fields, its own events (no SessionEnd);
# the transcript is only a path to them (stat for Stop and PreCompact)
for pair in session-start:SessionStart user-prompt-submit:UserPromptSubmit pre-tool-use:PreToolUse stop:Stop pre-compact:PreCompact; do
	hook "$BENCH_BIN/git-yoimem" "${pair%%:*}" "${pair#*:}" codex
done
bench_timeit 0 "$BENCH_REPO" sh -c 'exec git-yoimem --version >/dev/null'
printf 'floor: starting git-yoimem at all (--version, through sh): median %s ms, CPU %s ms\n' "$(bench_ms "$TIME_MEDIAN_MS")" "$(bench_ms "$TIME_CPU_MS")"
bench_timeit 0 "$BENCH_REPO" sh -c 'exec cat .yoi/memory/summary.md >/dev/null'
printf 'floor: cat .yoi/memory/summary.md (through sh): median %s ms, CPU %s ms\n' "$(bench_ms "$TIME_MEDIAN_MS")" "$(bench_ms "$TIME_CPU_MS")"
# let the background runs finish before the temp dir goes
for _ in $(seq 1 600); do
	pgrep -f "hook (claude-code|codex) background" >/dev/null || break
	sleep 0.1
done
