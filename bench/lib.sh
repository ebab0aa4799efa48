# shellcheck shell=bash
# shellcheck disable=SC2034 # variables set here are read by the scripts that source it
# Shared setup for the benchmarks in bench/. Source it from a script that runs
# with `set -euo pipefail`, then call, in order:
#
#   bench_init            temp dir, Go caches, cleanup trap; sets BENCH_ROOT, BENCH_TMP, BENCH_BIN
#   bench_build           git-yoimem, gencorpus and timeit into $BENCH_BIN, first on PATH
#   bench_isolate         HOME and git config that ignore the user's and the system's
#   bench_corpus          generated, committed corpus in a fresh repository; sets BENCH_REPO
#
# and the helpers bench_require_rg, bench_absent_word, bench_timeit, bench_ms,
# bench_mib, bench_ratio.
#
# Environment (all optional):
#   BENCH_N                records in the corpus (default 10000)
#   BENCH_RUNS             measured runs per command (default 10)
#   BENCH_WARMUP           unmeasured runs first (default 2)
#   BENCH_SEED             corpus seed (default 1)
#   BENCH_INVOCABLE        knowledge records with model_invokation: true (default 300)
#   BENCH_SHAPES           record shapes: mixed (default; as people and models write
#                          them) or canonical (as git-yoimem writes them); see gencorpus
#   BENCH_ABSENT_WORD      the word the ripgrep baselines search for (default: generated);
#                          it must occur in no file of the corpus
#   BENCH_KEEP=1           keep the temp dir and print where it is
#   BENCH_GIT_YOIMEM_BIN   use this git-yoimem binary instead of building ./cmd/git-yoimem
#                          (to compare a released binary, or to try the scripts before
#                          a command exists)

BENCH_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_N=${BENCH_N:-10000}
BENCH_RUNS=${BENCH_RUNS:-10}
BENCH_WARMUP=${BENCH_WARMUP:-2}
BENCH_SEED=${BENCH_SEED:-1}
BENCH_INVOCABLE=${BENCH_INVOCABLE:-300}
BENCH_SHAPES=${BENCH_SHAPES:-mixed}

bench_log() { printf 'bench: %s\n' "$*" >&2; }
bench_die() {
	printf 'bench: %s\n' "$*" >&2
	exit 1
}

bench_cleanup() {
	if [[ ${BENCH_KEEP:-} == 1 ]]; then
		bench_log "kept $BENCH_TMP"
	elif [[ -n ${BENCH_TMP:-} && -d $BENCH_TMP ]]; then
		rm -rf -- "$BENCH_TMP"
	fi
}

bench_init() {
	local v
	for v in BENCH_N BENCH_RUNS BENCH_WARMUP BENCH_SEED BENCH_INVOCABLE; do
		[[ ${!v} =~ ^[0-9]+$ ]] || bench_die "$v must be a whole number, got '${!v}'"
	done
	((BENCH_N >= 1 && BENCH_RUNS >= 1)) || bench_die "BENCH_N and BENCH_RUNS must be at least 1"
	[[ $BENCH_SHAPES == mixed || $BENCH_SHAPES == canonical ]] ||
		bench_die "BENCH_SHAPES must be mixed or canonical, got '$BENCH_SHAPES'"
	command -v go >/dev/null || bench_die "go is not on PATH"
	command -v git >/dev/null || bench_die "git is not on PATH"
	BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/yoimem-bench.XXXXXX")
	BENCH_BIN=$BENCH_TMP/bin
	mkdir -p "$BENCH_BIN"
	trap bench_cleanup EXIT
	# Pin Go's caches before HOME changes, so builds stay warm and offline.
	export GOCACHE GOMODCACHE GOPATH
	GOCACHE=$(go env GOCACHE)
	GOMODCACHE=$(go env GOMODCACHE)
	GOPATH=$(go env GOPATH)
}

bench_build() {
	bench_log "building into $BENCH_BIN"
	if [[ -n ${BENCH_GIT_YOIMEM_BIN:-} ]]; then
		[[ -x $BENCH_GIT_YOIMEM_BIN ]] || bench_die "BENCH_GIT_YOIMEM_BIN=$BENCH_GIT_YOIMEM_BIN is not executable"
		bench_log "using BENCH_GIT_YOIMEM_BIN=$BENCH_GIT_YOIMEM_BIN instead of building ./cmd/git-yoimem"
		cp -- "$BENCH_GIT_YOIMEM_BIN" "$BENCH_BIN/git-yoimem"
	else
		# as install.sh builds it: static, no cgo, and a copy of what the
		# linker wrote (which starts slower while the page cache holds it)
		(cd -- "$BENCH_ROOT" && CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$BENCH_TMP/git-yoimem.built" ./cmd/git-yoimem) ||
			bench_die "cannot build git-yoimem from $BENCH_ROOT/cmd/git-yoimem"
		cp -- "$BENCH_TMP/git-yoimem.built" "$BENCH_BIN/git-yoimem"
	fi
	(cd -- "$BENCH_ROOT" && go build -o "$BENCH_BIN/gencorpus" ./bench/gencorpus &&
		go build -o "$BENCH_BIN/timeit" ./bench/timeit &&
		go build -o "$BENCH_BIN/mcpbench" ./bench/mcpbench &&
		go build -o "$BENCH_BIN/gentranscript" ./bench/gentranscript) ||
		bench_die "cannot build the bench tools"
	export PATH="$BENCH_BIN:$PATH"
}

# bench_isolate makes git ignore the user's and the system's configuration
# and the caller's repository, so results do not depend on who runs them.
bench_isolate() {
	export HOME=$BENCH_TMP/home
	mkdir -p "$HOME"
	export XDG_CONFIG_HOME=$HOME/.config
	export GIT_CONFIG_NOSYSTEM=1
	export GIT_CONFIG_GLOBAL=$HOME/.gitconfig
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_COMMON_DIR \
		GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CEILING_DIRECTORIES GIT_CONFIG \
		GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_NAMESPACE
	cat >"$GIT_CONFIG_GLOBAL" <<-'CFG'
		[user]
			name = yoimem bench
			email = bench@example.invalid
		[init]
			defaultBranch = main
		[commit]
			gpgsign = false
		[gc]
			auto = 0
	CFG
	export GIT_AUTHOR_DATE='2026-03-01T10:00:00Z' GIT_COMMITTER_DATE='2026-03-01T10:00:00Z'
	export LC_ALL=C
}

# bench_corpus generates the corpus into a fresh repository and commits it, so
# the work tree is clean as in a real checkout. Sets BENCH_REPO,
# BENCH_RECORDS and BENCH_BYTES.
bench_corpus() {
	BENCH_REPO=$BENCH_TMP/repo
	mkdir -p "$BENCH_REPO"
	git -C "$BENCH_REPO" init -q
	gencorpus -out "$BENCH_REPO" -n "$BENCH_N" -seed "$BENCH_SEED" -invocable "$BENCH_INVOCABLE" -shapes "$BENCH_SHAPES"
	git -C "$BENCH_REPO" add -A .yoi
	git -C "$BENCH_REPO" commit -q -m "bench corpus: $BENCH_N records, seed $BENCH_SEED, shapes $BENCH_SHAPES"
	BENCH_RECORDS=$(find "$BENCH_REPO/.yoi" -type f -name '*.md' | wc -l)
	BENCH_RECORDS=${BENCH_RECORDS//[[:space:]]/}
	BENCH_BYTES=$(find "$BENCH_REPO/.yoi" -type f -printf '%s\n' | awk '{s += $1} END {printf "%d", s}')
}

# bench_pack packs the corpus repository's objects, as a repository whose
# memory has a history is (git gc packs loose objects past 6,700 of them);
# gc.auto is off in the isolated configuration, so that no gc starts in the
# background while a benchmark runs.
bench_pack() {
	git -C "$BENCH_REPO" gc -q --prune=now
}

bench_require_rg() {
	if ! command -v rg >/dev/null; then
		printf 'bench: ripgrep (rg) is not on PATH; install it with: apt-get install -y ripgrep\n' >&2
		exit 2
	fi
}

# bench_absent_word sets BENCH_ABSENT to a word that no file of the corpus
# holds, checked with rg (exit 1: no match), for the ripgrep baselines: with
# nothing to report, rg's time is the cost of reading every byte, the floor
# of any full scan. A common word makes rg slower and our ratios look
# better. BENCH_ABSENT_WORD names the word; a corpus holding it stops the
# script. Otherwise the first absent word of a fixed list is taken (the
# corpus is words of English and Japanese prose and hex IDs).
bench_absent_word() {
	local w rc
	local -a words=(zqxjvkw qwzxjkv xjqzvwk zzqxjjvk)
	[[ -n ${BENCH_ABSENT_WORD:-} ]] && words=("$BENCH_ABSENT_WORD")
	for w in "${words[@]}"; do
		rc=0
		(cd -- "$BENCH_REPO" && rg -q -j1 -i -F -- "$w" .yoi) || rc=$?
		case $rc in
		1)
			BENCH_ABSENT=$w
			return
			;;
		0) bench_log "'$w' occurs in the corpus; not an absent word" ;;
		*) bench_die "rg failed (exit $rc) looking for '$w' in $BENCH_REPO/.yoi" ;;
		esac
	done
	bench_die "no absent word: every candidate (${words[*]}) occurs in the corpus; set BENCH_ABSENT_WORD"
}

# bench_timeit OK_EXITS DIR CMD ARGS... runs timeit and sets TIME_MEDIAN_MS,
# TIME_MIN_MS, TIME_RSS_KIB, TIME_RUNS and TIME_CPU_MS (median CPU time, user +
# system). A failing run stops the script.
bench_timeit() {
	local ok=$1 dir=$2 out kv
	shift 2
	out=$(timeit -n "$BENCH_RUNS" -warmup "$BENCH_WARMUP" -ok-exit "$ok" -C "$dir" -- "$@") ||
		bench_die "timing failed: $*"
	TIME_MEDIAN_MS='' TIME_MIN_MS='' TIME_RSS_KIB='' TIME_RUNS='' TIME_CPU_MS=''
	for kv in $out; do
		case $kv in
		median_ms=*) TIME_MEDIAN_MS=${kv#*=} ;;
		min_ms=*) TIME_MIN_MS=${kv#*=} ;;
		max_rss_kib=*) TIME_RSS_KIB=${kv#*=} ;;
		runs=*) TIME_RUNS=${kv#*=} ;;
		cpu_ms=*) TIME_CPU_MS=${kv#*=} ;;
		esac
	done
	[[ -n $TIME_MEDIAN_MS && -n $TIME_RSS_KIB ]] || bench_die "cannot read timeit output: $out"
}

# Formatting helpers (awk, since bash has no floating point).
bench_ms() { awk -v x="$1" 'BEGIN { printf "%.1f", x }'; }
bench_mib() { awk -v x="$1" 'BEGIN { printf "%.1f", x / 1024 }'; }
bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
