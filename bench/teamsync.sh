#!/usr/bin/env bash
# A team sharing memory through one bare remote (bench/teamsim):
# BENCH_CLONES (20) clones x BENCH_CONSOLIDATIONS (25) consolidations each,
# interleaved, each clone pulling before it consolidates and pushing most
# of the time. Reports the memory commits and records on the remote, the
# conflicts left for a person (goal: 0 when no two clones edit a record's
# body at the same lines), and the time per sync (git yoimem pull) against
# git fetch + git rebase of the same commits, measured in the same run on
# a copy of the clone. The script reports; it does not judge. See
# bench/README.md.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"

BENCH_CLONES=${BENCH_CLONES:-20}
BENCH_CONSOLIDATIONS=${BENCH_CONSOLIDATIONS:-25}
BENCH_PUSH=${BENCH_PUSH:-0.7}
BENCH_SHARED=${BENCH_SHARED:-0.2}
for v in BENCH_CLONES BENCH_CONSOLIDATIONS; do
	[[ ${!v} =~ ^[0-9]+$ ]] || bench_die "$v must be a whole number, got '${!v}'"
done

bench_init
bench_build
(cd -- "$BENCH_ROOT" && go build -o "$BENCH_BIN/teamsim" ./bench/teamsim) || bench_die "cannot build teamsim"
bench_isolate
# Every commit of the simulation gets its own time from git-yoimem's
# clock; the fixed dates of bench_isolate would make the baseline's
# rebased commits collide.
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
mkdir -p "$BENCH_TMP/team"
teamsim -dir "$BENCH_TMP/team" -clones "$BENCH_CLONES" -runs "$BENCH_CONSOLIDATIONS" \
	-push "$BENCH_PUSH" -shared "$BENCH_SHARED" -seed "$BENCH_SEED" -seeded="${BENCH_SEEDED:-true}"
