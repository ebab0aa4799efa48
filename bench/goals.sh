#!/usr/bin/env bash
# Issue 14's goal table, reproduced: runs lint.sh, search.sh, hooks.sh and
# extract.sh BENCH_REPEAT times each (default 3), in turn (lint, search,
# hooks, extract; then again), each run a separate process with its own
# corpus, and prints every run's figures, script by script. BENCH_100K=1 adds
# lint.sh at 100,000 records (BENCH_RUNS=3, slow). The other BENCH_*
# variables pass through to the scripts (see lib.sh).
# The script reports; it does not judge. See bench/README.md.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repeat=${BENCH_REPEAT:-3}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || {
	printf 'bench: BENCH_REPEAT must be a whole number >= 1, got %s\n' "$repeat" >&2
	exit 1
}
out=${BENCH_GOALS_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/yoimem-goals.XXXXXX")}
mkdir -p "$out"
printf 'bench: logs in %s\n' "$out" >&2

scripts=(lint search hooks extract)
[[ ${BENCH_100K:-} == 1 ]] && scripts+=(lint100k)

run_one() {
	local name=$1 i=$2 log=$out/$1.$2.log
	printf 'bench: run %s of %s: %s\n' "$i" "$repeat" "$name" >&2
	case $name in
	lint100k) BENCH_N=100000 BENCH_RUNS=3 BENCH_WARMUP=1 bash "$here/lint.sh" >"$log" 2>"$log.err" ;;
	*) bash "$here/$name.sh" >"$log" 2>"$log.err" ;;
	esac || {
		printf 'bench: %s failed (run %s); see %s.err\n' "$name" "$i" "$log" >&2
		exit 1
	}
}

for ((i = 1; i <= repeat; i++)); do
	for name in "${scripts[@]}"; do
		run_one "$name" "$i"
	done
done

# Every run's figures (all but the corpus line), script by script.
for name in "${scripts[@]}"; do
	printf '\n== %s ==\n' "$name"
	for ((i = 1; i <= repeat; i++)); do
		printf -- '-- run %s\n' "$i"
		grep -v -E '^(corpus|transcript):' "$out/$name.$i.log" || true
	done
done
