#!/usr/bin/env bash
# Process start of git-yoimem against a hello-world Go binary built in the
# same run (the floor any Go program pays): medians of the wall time, the
# CPU time (user + system) and the minor page faults (the memory touched;
# the load hardly moves them) of
#   - hello (the floor);
#   - git-yoimem --version;
#   - git yoimem hook pre-commit, nothing staged, through git as git's
#     hook runs it (git's own start included);
#   - git-yoimem hook claude-code pre-tool-use, a small Bash call on stdin
#     as Claude Code runs it;
# each with its ratio to the floor, then GODEBUG=inittrace=1's totals of
# --version (package initialisation: clock, bytes, allocations) and the
# packages that allocate most there. The commands run in rounds, one run
# of each a round in a rotating order, so that the machine's load moves
# all alike. BENCH_BASELINE_BIN=PATH times another git-yoimem binary (e.g.
# one built from main) in the same rounds, for a before and after in one
# run. The script reports; it does not judge. See bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

BENCH_RUNS=${BENCH_STARTUP_RUNS:-100}
TRACE_RUNS=${BENCH_TRACE_RUNS:-10}
[[ $BENCH_RUNS =~ ^[1-9][0-9]*$ ]] || bench_die "BENCH_STARTUP_RUNS must be a whole number of at least 1, got '$BENCH_RUNS'"
[[ $TRACE_RUNS =~ ^[1-9][0-9]*$ ]] || bench_die "BENCH_TRACE_RUNS must be a whole number of at least 1, got '$TRACE_RUNS'"

bench_init
bench_build
bench_isolate

# The floor: a hello-world Go binary of the same toolchain, its own module.
mkdir -p "$BENCH_TMP/hello"
printf 'module hello\n\ngo 1.22\n' >"$BENCH_TMP/hello/go.mod"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$BENCH_TMP/hello/main.go"
(cd -- "$BENCH_TMP/hello" && GOFLAGS= go build -o hello .) || bench_die "cannot build the hello-world binary"
cp -- "$BENCH_TMP/hello/hello" "$BENCH_BIN/hello" # a copy, as git-yoimem is (below)

# One directory per binary, so that `git yoimem` finds the one timed on
# PATH. Both are copies, written alike: a binary as the Go linker wrote
# it starts slower than a copy of it while the page cache holds it.
mkdir -p "$BENCH_TMP/this"
cp -- "$BENCH_BIN/git-yoimem" "$BENCH_TMP/this/git-yoimem"
labels=this
if [[ -n ${BENCH_BASELINE_BIN:-} ]]; then
	[[ -x $BENCH_BASELINE_BIN ]] || bench_die "BENCH_BASELINE_BIN=$BENCH_BASELINE_BIN is not executable"
	mkdir -p "$BENCH_TMP/baseline"
	cp -- "$BENCH_BASELINE_BIN" "$BENCH_TMP/baseline/git-yoimem"
	labels='this baseline'
fi

# A workspace with nothing staged, as after a commit.
repo=$BENCH_TMP/repo
mkdir -p "$repo"
git -C "$repo" init -q
(cd -- "$repo" && git-yoimem init >/dev/null 2>&1) || bench_die "git yoimem init failed in $repo"
git -C "$repo" add -A
git -C "$repo" commit -q --no-verify -m 'yoimem workspace'
payload=$BENCH_TMP/pre-tool-use.json
printf '{"session_id":"00893aaf-19fa-41d2-8238-13269b9b3ca0","transcript_path":"%s/none.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo x >> .yoi/memory/summary.md"}}\n' \
	"$BENCH_TMP" "$repo" >"$payload"

# subjects: the floor, then each command as NAME:LABEL, LABEL the binary
# (this tree's, the baseline). Each is timed as started directly, no
# shell between, so the floor and the commands pay the same exec.
subjects=(hello)
for l in $labels; do
	subjects+=("version:$l" "pre-commit:$l" "pre-tool-use:$l")
done

# run_one SUBJECT appends one run's wall and CPU time to its files.
run_one() {
	local name=${1%%:*} label=${1#*:} dir out kv
	dir=$BENCH_TMP/$label
	case $name in
	hello) out=$(timeit -n 1 -warmup 0 -- "$BENCH_BIN/hello") ;;
	version) out=$(timeit -n 1 -warmup 0 -- "$dir/git-yoimem" --version) ;;
	pre-commit) out=$(PATH=$dir:$PATH timeit -n 1 -warmup 0 -C "$repo" -- git yoimem hook pre-commit) ;;
	pre-tool-use) out=$(timeit -n 1 -warmup 0 -C "$repo" -stdin "$payload" -- "$dir/git-yoimem" hook claude-code pre-tool-use) ;;
	esac || bench_die "timing failed: $1"
	for kv in $out; do
		case $kv in
		median_ms=*) echo "${kv#*=}" >>"$BENCH_TMP/$1.wall" ;;
		cpu_ms=*) echo "${kv#*=}" >>"$BENCH_TMP/$1.cpu" ;;
		minflt=*) echo "${kv#*=}" >>"$BENCH_TMP/$1.flt" ;;
		esac
	done
}

# median reads numbers, one a line, and prints their median
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

n=${#subjects[@]}
for ((i = 0; i < BENCH_WARMUP + BENCH_RUNS; i++)); do
	for ((k = 0; k < n; k++)); do
		s=${subjects[(i + k) % n]} # each subject first in turn
		run_one "$s"
		if ((i < BENCH_WARMUP)); then
			rm -f -- "$BENCH_TMP/$s.wall" "$BENCH_TMP/$s.cpu" "$BENCH_TMP/$s.flt"
		fi
	done
done

hello_wall=$(median <"$BENCH_TMP/hello.wall")
hello_cpu=$(median <"$BENCH_TMP/hello.cpu")
hello_flt=$(median <"$BENCH_TMP/hello.flt")
printf 'runs: %s of each, in rounds (after %s unmeasured), load average at the end: %s\n' "$BENCH_RUNS" "$BENCH_WARMUP" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
printf '%-40s wall median %7s ms, CPU median %7s ms, page faults %s\n' "hello-world Go binary (the floor)" "$(bench_ms "$hello_wall")" "$(bench_ms "$hello_cpu")" "$hello_flt"
for s in "${subjects[@]:1}"; do
	name=${s%%:*} label=${s#*:}
	case $name in
	version) what='git-yoimem --version' ;;
	pre-commit) what='git yoimem hook pre-commit' ;;
	pre-tool-use) what='hook claude-code pre-tool-use' ;;
	esac
	wall=$(median <"$BENCH_TMP/$s.wall")
	cpu=$(median <"$BENCH_TMP/$s.cpu")
	printf '%-40s wall median %7s ms (%sx the floor), CPU median %7s ms (%sx), page faults %s\n' "$label: $what" \
		"$(bench_ms "$wall")" "$(bench_ratio "$wall" "$hello_wall")" "$(bench_ms "$cpu")" "$(bench_ratio "$cpu" "$hello_cpu")" "$(median <"$BENCH_TMP/$s.flt")"
done

# Package initialisation of --version, GODEBUG=inittrace=1: each run's
# totals (the clock moves with the load, bytes and allocations do not),
# then the packages that allocate most.
for l in $labels; do
	: >"$BENCH_TMP/trace.$l"
	for ((i = 0; i < TRACE_RUNS; i++)); do
		GODEBUG=inittrace=1 "$BENCH_TMP/$l/git-yoimem" --version 2>&1 >/dev/null |
			awk '/^init / { t += $5; b += $8; a += $10; n++ } END { printf "%d %.3f %d %d\n", n, t, b, a }' >>"$BENCH_TMP/trace.$l"
	done
	# awk, not head, takes the first five: head exiting early would end
	# sort with SIGPIPE, which pipefail makes the script's status (141).
	GODEBUG=inittrace=1 "$BENCH_TMP/$l/git-yoimem" --version 2>&1 >/dev/null |
		awk '/^init / { print $10, $8, $2 }' | sort -rn | awk 'NR <= 5' |
		awk '{ printf "%s %s allocs (%s bytes)", (NR > 1 ? "," : ""), $1, $2 } { sub(/^github\.com\//, "", $3); printf " %s", $3 }' >"$BENCH_TMP/top.$l"
	printf '%s: package init of --version: %s packages, clock median %s ms, %s bytes, %s allocs (medians of %s runs)\n' "$l" \
		"$(cut -d' ' -f1 "$BENCH_TMP/trace.$l" | median)" "$(cut -d' ' -f2 "$BENCH_TMP/trace.$l" | median)" \
		"$(cut -d' ' -f3 "$BENCH_TMP/trace.$l" | median)" "$(cut -d' ' -f4 "$BENCH_TMP/trace.$l" | median)" "$TRACE_RUNS"
	printf '%s:   most allocations:%s\n' "$l" "$(cat "$BENCH_TMP/top.$l")"
done
