#!/usr/bin/env bash
# install.sh: build git-yoimem (and its model-call helper git-yoimem-llm)
# and install them where git finds them.
#
#   ./install.sh [--prefix DIR] [--demo]
#
# The binary goes to DIR/bin (with --prefix), else to the first of
# ~/.local/bin (when on PATH) or /usr/local/bin (when writable), else to
# ~/.local/bin with a note on PATH. git runs `git yoimem` as `git-yoimem`
# from PATH. --demo then runs git-yoimem on a sample repository in a
# temporary directory. Needs Go (1.26 or later) and git.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
prefix=""
demo=false
while (($#)); do
	case $1 in
	--prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
	--prefix=*) prefix=${1#--prefix=}; shift ;;
	--demo) demo=true; shift ;;
	-h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

die() { echo "install.sh: error: $*" >&2; exit 2; }
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
mkdir -p -- "$bindir"

# Two binaries: git-yoimem, and git-yoimem-llm, which makes the Anthropic
# and OpenAI calls so that git-yoimem (run by every commit's hook and every
# agent turn) does not carry the SDKs. urfave_cli_no_docs drops the CLI
# library's man-page generator, which nothing uses, from start-up.
echo "building git-yoimem and git-yoimem-llm ..." >&2
for cmd in git-yoimem git-yoimem-llm; do
	(cd -- "$here" && go build -trimpath -tags urfave_cli_no_docs -o "$bindir/$cmd.tmp" "./cmd/$cmd")
	mv -f -- "$bindir/$cmd.tmp" "$bindir/$cmd"
done
echo "installed $bindir/git-yoimem ($("$bindir/git-yoimem" --version)) and $bindir/git-yoimem-llm" >&2
if on_path "$bindir"; then
	echo "git finds it: try 'git yoimem --help'" >&2
else
	echo "note: $bindir is not on PATH; add it so git finds 'git yoimem':" >&2
	echo "  export PATH=\"$bindir:\$PATH\"" >&2
fi

$demo || exit 0

# The demo: a sample repository with agent memory, linted, fixed, linted.
export PATH="$bindir:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/yoimem-demo.XXXXXX")
repo=$work/tinyshop
(cd -- "$here" && go run ./internal/cmd/unpack testdata/repos/sample.txtar "$repo")
cd -- "$repo"
export HOME=$work/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/home/.gitconfig
mkdir -p -- "$HOME"
git config --global user.name "Demo" && git config --global user.email demo@example.com

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

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
echo "demo repository kept at $repo"
