#!/usr/bin/env bash
# install.sh: build git-yoimem and install it where git finds it, with its
# man page and git-yoimem-llm, the helper that makes Anthropic and OpenAI
# model calls.
#
#   ./install.sh [--prefix DIR] [--demo]
#
# The binaries go to DIR/bin and the man page to DIR/share/man/man1 (with
# --prefix), else under the first of ~/.local (when ~/.local/bin is on
# PATH) or /usr/local (when writable), else ~/.local with a note on PATH.
# git runs `git yoimem` as git-yoimem from PATH, and `git yoimem --help`
# as `man git-yoimem`. --demo then runs git-yoimem on a sample repository
# in a temporary directory while the helper builds: lint, retrieval, and
# two recorded agent sessions extracted and consolidated onto the memory
# branch, offline. Needs Go (1.26 or later) and git. The first build
# downloads and compiles the dependencies:
# a few minutes; later ones take seconds.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; }
prefix=""
demo=false
while (($#)); do
	case $1 in
	--prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
	--prefix=*) prefix=${1#--prefix=}; shift ;;
	--demo) demo=true; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

die() { echo "install.sh: error: $*" >&2; exit 2; }
say() { echo "install.sh: $*" >&2; }
command -v go >/dev/null 2>&1 || die "Go is not on PATH; install Go 1.26 or later from your package manager or go.dev"
command -v git >/dev/null 2>&1 || die "git is not on PATH; install git (apt-get install git)"

on_path() { case ":$PATH:" in *":$1:"*) return 0 ;; *) return 1 ;; esac; }

if [[ -n $prefix ]]; then
	bindir=$prefix/bin
elif on_path "$HOME/.local/bin"; then
	bindir=$HOME/.local/bin
elif [[ -w /usr/local/bin ]]; then
	bindir=/usr/local/bin
else
	bindir=$HOME/.local/bin
fi
# man-db looks for the pages of DIR/bin (on PATH) in DIR/share/man.
mandir=$(dirname -- "$bindir")/share/man/man1
mkdir -p -- "$bindir" "$mandir"

logs=$(mktemp -d "${TMPDIR:-/tmp}/yoimem-install.XXXXXX")
helper_pid=""
cleanup() {
	[[ -z $helper_pid ]] || kill "$helper_pid" 2>/dev/null || true
	rm -rf -- "$logs"
}
trap cleanup EXIT

# fetch NAME PACKAGE...: download the modules the packages need, said in
# one line instead of a "go: downloading" line per module.
fetch() {
	local name=$1
	shift
	if (cd -- "$here" && GOPROXY=off go list -deps "$@" >/dev/null 2>&1); then
		return 0 # all in the module cache already
	fi
	say "downloading the Go modules of $name (first run only; a minute or two on a slow network) ..."
	if ! (cd -- "$here" && go list -deps "$@" >/dev/null 2>"$logs/fetch-$name.log"); then
		cat -- "$logs/fetch-$name.log" >&2
		die "could not download the Go modules (see above)"
	fi
	say "downloaded $(grep -c '^go: downloading' "$logs/fetch-$name.log" || true) modules"
}

# compile CMD: build ./cmd/CMD as bindir/CMD.tmp (the go command is the
# subshell's last process: stopping it stops the build). urfave_cli_no_docs
# leaves the CLI library's own man-page generator, which nothing uses,
# out of start-up. git-yoimem is built without cgo: a static binary starts
# without the dynamic loader and libc's thread start-up (a quarter of its
# start-up CPU time; see bench/startup.sh), and it needs no C library (the
# only cgo it had was net's DNS resolver; Go's own resolves as well).
compile() {
	(
		cd -- "$here" || exit
		if [[ $1 == git-yoimem ]]; then export CGO_ENABLED=0; fi
		exec go build -trimpath -tags urfave_cli_no_docs -o "$bindir/$1.tmp" "./cmd/$1"
	)
}
# build CMD: compile it and put a copy of it in place atomically. A
# copy: a binary as the Go linker wrote it (through a memory map) started
# with 1.3 ms more CPU time than a copy of it here, until the page cache
# dropped it (bench/startup.sh).
build() {
	compile "$1" && cp -- "$bindir/$1.tmp" "$bindir/$1.new" && rm -f -- "$bindir/$1.tmp" &&
		mv -f -- "$bindir/$1.new" "$bindir/$1"
}

packages=(./cmd/git-yoimem)
$demo && packages+=(./internal/cmd/unpack)
fetch git-yoimem "${packages[@]}"
say "building git-yoimem (the first build compiles its dependencies: about a minute) ..."
SECONDS=0
build git-yoimem
cp -f -- "$here/docs/man/git-yoimem.1" "$mandir/git-yoimem.1"
say "installed $bindir/git-yoimem ($("$bindir/git-yoimem" --version)) in ${SECONDS}s, and its man page $mandir/git-yoimem.1"

# The helper is needed only for anthropic: and openai: models, and its
# first build (both SDKs) takes minutes: while the demo runs, in the
# background.
helper_note="git-yoimem-llm, the helper for anthropic: and openai: models (its first build compiles both SDKs: a few minutes)"
if $demo; then
	say "building $helper_note, in the background while the demo runs ..."
	(fetch git-yoimem-llm ./cmd/git-yoimem-llm && compile git-yoimem-llm) >"$logs/helper.log" 2>&1 &
	helper_pid=$!
else
	fetch git-yoimem-llm ./cmd/git-yoimem-llm
	say "building $helper_note ..."
	SECONDS=0
	build git-yoimem-llm
	say "installed $bindir/git-yoimem-llm in ${SECONDS}s"
fi

if on_path "$bindir"; then
	say "git finds it: try 'git yoimem help', or 'git yoimem --help' for the manual"
	if command -v man >/dev/null 2>&1 && ! man -w git-yoimem >/dev/null 2>&1; then
		say "note: man does not find git-yoimem(1): MANPATH leaves out $(dirname -- "$mandir"); add it:"
		echo "  export MANPATH=\"$(dirname -- "$mandir"):\$MANPATH\"" >&2
	fi
else
	say "note: $bindir is not on PATH; add it so git finds 'git yoimem':"
	echo "  export PATH=\"$bindir:\$PATH\"" >&2
fi

$demo || exit 0

# The demo: a sample repository with agent memory, linted, fixed, linted;
# two agent sessions extracted and consolidated (an llm run with recorded
# answers, then the rules engine) onto the memory branch, the whole
# pipeline offline.
(
export PATH="$bindir:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/yoimem-demo.XXXXXX")
repo=$work/tinyshop
(cd -- "$here" && go run ./internal/cmd/unpack testdata/repos/sample.txtar "$repo")
cd -- "$repo"
export HOME=$work/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/home/.gitconfig
mkdir -p -- "$HOME"
git config --global user.name "Demo" && git config --global user.email demo@example.com

# Commands in bold on a terminal; plain in a log or a pipe.
bold='' plain=''
if [[ -t 1 ]]; then bold=$'\033[1m' plain=$'\033[0m'; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }

echo
echo "== sample repository: $repo"
step git yoimem init
step git ls-files .yoi
set +e
step git yoimem lint
echo "(exit status $?: errors found)"
set -e

echo
echo "== fixing the two findings: add the request's sources, write the missing knowledge record"
python_free_fix() {
	local req=.yoi/memory/requests/checkout-retries.md
	awk 'NR==3{print; print "sources:"; print "  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aaee, range: [5, 18]}"; next} {print}' "$req" >"$req.new" && mv "$req.new" "$req"
	cat >.yoi/knowledge/request-ids.md <<'MD'
---
kind: rule
description: Every log line carries the request ID; read before adding logging.
model_invokation: false
user_invocable: true
created_at: 2025-12-09T11:00:00Z
updated_at: 2025-12-09T11:00:00Z
last_sources:
  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aadd, range: [60, 77]}
---
# Request IDs

Middleware puts the ID in the context; slog handlers read it from there.
MD
}
python_free_fix
step git diff --stat
step git yoimem lint
echo "(exit status $?: clean)"
step git yoimem lint --format json .yoi/knowledge
step git yoimem config yoimem.search.maxResults

echo
echo "== retrieval: what an agent sees at session start, and a search"
step git yoimem context
step git yoimem search knowledge wal

echo
echo "== extract: what happened in an agent session (a Claude Code transcript; the model's answer is recorded, so no key or network is needed)"
session=$here/testdata/sessions/tinyshop.claude-code.jsonl
step git yoimem extract --log "$session" --check
step git yoimem extract --log "$session" --force --model "replay:$here/testdata/sessions/tinyshop.replay.json"
step sh -c 'cat .yoi/memory/_staging/*.json'
step git yoimem extract --log "$session" --check
step git status --short

echo
echo "== consolidation: the staged activity becomes records, as one commit on the memory branch (yoimem/memory); the working tree is not touched"
step git add .yoi
step git commit -q -m "memory: fix the two lint findings"
step git yoimem consolidate --check
echo "(the llm engine, with the model's answers recorded: no key or network is needed)"
step git yoimem consolidate --model "replay:$here/testdata/sessions/tinyshop.consolidate.replay.json"

echo
echo "== a second session, consolidated with the rules engine (no model): the open decision is resolved, the request added"
session2=$here/testdata/sessions/tinyshop-2.claude-code.jsonl
step git yoimem extract --log "$session2" --force --model "replay:$here/testdata/sessions/tinyshop-2.replay.json"
step git yoimem consolidate --engine rules
step git yoimem log
step git --no-pager diff main yoimem/memory -- .yoi/memory .yoi/knowledge
step git status --short
echo "(review the memory branch as any branch: git diff, a pull request, or 'git yoimem merge' to apply it)"
echo
echo "demo repository kept at $repo"
)

echo >&2
say "waiting for git-yoimem-llm to finish building ..."
SECONDS=0
if ! wait "$helper_pid"; then
	helper_pid=""
	cat -- "$logs/helper.log" >&2
	die "git-yoimem-llm did not build (see above); git-yoimem is installed, and works with every model but anthropic: and openai:"
fi
helper_pid=""
mv -f -- "$bindir/git-yoimem-llm.tmp" "$bindir/git-yoimem-llm"
say "installed $bindir/git-yoimem-llm (waited ${SECONDS}s)"
