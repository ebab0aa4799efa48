#!/usr/bin/env bash
# CPU profiles of the commands issue 14's goals time, on the same corpus:
# the built binary run as a user runs it, each run writing a profile
# (YOIMEM_CPUPROFILE), the runs merged by pprof, and the top entries
# printed (flat and cumulative). A command of a few milliseconds gets few
# samples a run, so it is run many times (BENCH_PROFILE_RUNS scales them).
# The script reports; it does not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

scale=${BENCH_PROFILE_RUNS:-1}
[[ $scale =~ ^[1-9][0-9]*$ ]] || bench_die "BENCH_PROFILE_RUNS must be a whole number >= 1, got '$scale'"
top=${BENCH_PROFILE_TOP:-12}
# BENCH_PROFILE_SMOKE=1 runs everything twice (CI: the script still works)
smoke=${BENCH_PROFILE_SMOKE:-0}
# runs N: how many times a command of base count N runs
runs() { if ((smoke)); then echo 2; else echo $(($1 * scale)); fi; }

bench_init
bench_build
bench_isolate
bench_corpus
prof=$BENCH_TMP/prof
mkdir -p "$prof"

# profile NAME RUNS CMD...: runs CMD in the corpus RUNS times, each with
# its own profile file, then prints the merged profile's top entries.
profile() {
	local name=$1 runs=$2 i
	shift 2
	mkdir -p "$prof/$name"
	for ((i = 1; i <= runs; i++)); do
		(cd -- "$BENCH_REPO" && YOIMEM_CPUPROFILE=$prof/$name/$i.prof "$@") </dev/null >/dev/null 2>&1 || true
	done
	printf '\n== %s (%s runs) ==\n' "$name" "$runs"
	(cd -- "$BENCH_ROOT" && go tool pprof -top -nodecount="$top" "$BENCH_BIN/git-yoimem" "$prof/$name"/*.prof 2>/dev/null |
		awk '/^Showing nodes/ || /flat%/ || NR > 5' | awk -v n="$((top + 2))" 'NR <= n')
	printf -- '-- cumulative\n'
	(cd -- "$BENCH_ROOT" && go tool pprof -top -cum -nodecount="$((top * 2))" "$BENCH_BIN/git-yoimem" "$prof/$name"/*.prof 2>/dev/null |
		awk '/flat%/ { on = 1 } on' | grep -v -E ' (runtime\.main|main\.main|main\.run|runtime\.goexit|github.com/urfave/cli/v2\.)' || true)
}

cache=$BENCH_REPO/.git/yoimem/cache
profile lint "$(runs 5)" git yoimem lint
profile search-warm "$(runs 100)" git yoimem search knowledge zqxjvkw
profile search-cold "$(runs 20)" sh -c 'rm -rf "$1"; exec git yoimem search knowledge zqxjvkw' sh "$cache"
profile context "$(runs 100)" git yoimem context

# The pre-commit hook as git runs it, one staged record each time.
(cd -- "$BENCH_REPO" && git yoimem install >/dev/null)
rec=$(cd -- "$BENCH_REPO" && git ls-files .yoi/knowledge | awk 'NR == 1')
mkdir -p "$prof/pre-commit"
commits=$(runs 30)
for ((i = 1; i <= commits; i++)); do
	(cd -- "$BENCH_REPO" && printf '\nOne more line %s.\n' "$i" >>"$rec" && git add -- "$rec" &&
		YOIMEM_CPUPROFILE=$prof/pre-commit/$i.prof git commit -q -m "profile $i") >/dev/null 2>&1 ||
		bench_die "git commit with the pre-commit hook failed in $BENCH_REPO"
done
printf '\n== pre-commit (%s commits) ==\n' "$commits"
(cd -- "$BENCH_ROOT" && go tool pprof -top -nodecount="$top" "$BENCH_BIN/git-yoimem" "$prof/pre-commit"/*.prof 2>/dev/null |
	awk '/flat%/ { on = 1 } on')
