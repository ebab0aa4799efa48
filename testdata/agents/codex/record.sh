#!/usr/bin/env bash
# Records what the real Codex CLI writes, offline: a scripted local stand-in
# for the Responses API (internal/cmd/standin-responses), an isolated HOME
# and CODEX_HOME, hooks that save their stdin, a notify program that saves
# its argv. Usage, from the repository root:
#
#	testdata/agents/codex/record.sh CODEX_BIN OUT_DIR
#
# It writes OUT_DIR/{tools,hook-context}/ (see README.md here). Nothing
# leaves the loopback interface: the model provider is the stand-in.
set -euo pipefail
codex=$(realpath -- "$1")
out=$(realpath -m -- "$2")
here=$(dirname -- "$(realpath -- "${BASH_SOURCE[0]}")")
root=$(realpath -- "$here/../../..")
mkdir -p -- "$out"
go build -o "$out/standin-responses" "$root/internal/cmd/standin-responses"
# Hooks wait for review (newer releases) unless trust is bypassed.
trust=()
if "$codex" exec --help | grep -q -- --dangerously-bypass-hook-trust; then
	trust=(--dangerously-bypass-hook-trust)
fi

# session W TURNS CONTEXT ARGS…: one codex run in W against TURNS. With
# CONTEXT=1 the SessionStart and UserPromptSubmit hooks answer with
# additional context.
session() {
	local w=$1 turns=$2 context=$3
	shift 3
	mkdir -p "$w/home/.codex" "$w/requests" "$w/captures"
	if [[ ! -d $w/repo ]]; then
		mkdir -p "$w/repo"
		git -C "$w/repo" init -q
		printf 'hi\n' >"$w/repo/README.md"
		git -C "$w/repo" add README.md
		git -C "$w/repo" -c user.name=rec -c user.email=rec@example.com commit -qm init
	fi
	rm -f "$w/requests/url"
	"$out/standin-responses" "$turns" "$w/requests" 2>"$w/standin.log" &
	local pid=$!
	for _ in $(seq 100); do [[ -s $w/requests/url ]] && break; sleep 0.1; done
	[[ -s $w/requests/url ]] || { cat "$w/standin.log" >&2; exit 1; }
	local url
	url=$(cat "$w/requests/url")
	cat >"$w/save-hook.sh" <<EOS
#!/bin/sh
cat >"$w/captures/hook-\$1-\$(date +%s%N).json"
if [ "$context" = 1 ]; then case \$1 in SessionStart|UserPromptSubmit)
	printf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"context from the %s hook"}}' "\$1" "\$1";;
esac; fi
EOS
	cat >"$w/save-notify.sh" <<EOS
#!/bin/sh
n=\$(date +%s%N); i=0
for a in "\$@"; do i=\$((i+1)); printf '%s' "\$a" >"$w/captures/notify-\$n-arg\$i"; done
EOS
	chmod +x "$w/save-hook.sh" "$w/save-notify.sh"
	cat >"$w/home/.codex/config.toml" <<EOC
model = "gpt-5.2"
model_provider = "standin"
notify = ["$w/save-notify.sh"]
check_for_update_on_startup = false

[model_providers.standin]
name = "standin"
base_url = "$url"
wire_api = "responses"
env_key = "STANDIN_API_KEY"

[analytics]
enabled = false

[features]
hooks = true
plugins = false
EOC
	local ev events=""
	for ev in SessionStart UserPromptSubmit PreToolUse PostToolUse Stop; do
		events+="${events:+,}\"$ev\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"$w/save-hook.sh $ev\"}]}]"
	done
	printf '{"hooks":{%s}}\n' "$events" >"$w/home/.codex/hooks.json"
	# offline: no update check, analytics or plugin sync (above); anything
	# else not to the stand-in meets a dead loopback proxy
	(cd "$w/repo" && env -i PATH="$PATH" HOME="$w/home" CODEX_HOME="$w/home/.codex" STANDIN_API_KEY=offline \
		HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 ALL_PROXY=http://127.0.0.1:9 NO_PROXY=127.0.0.1,localhost \
		"$codex" exec "${trust[@]}" "$@" >"$w/stdout.txt" 2>"$w/stderr.txt" </dev/null)
	kill -INT "$pid"
	wait "$pid"
}

cat >"$out/tools-1.json" <<'EOT'
[{"Text":"I'll list the files first.","Calls":[{"Name":"exec_command","Arguments":"{\"cmd\":\"ls -a && cat README.md\",\"yield_time_ms\":1000}"}]},
 {"Text":"The repository holds README.md, which says hi. Decision: keep README.md as the only doc."}]
EOT
cat >"$out/tools-2.json" <<'EOT'
[{"Text":"Retries: use exponential backoff with at most 5 attempts, as agreed."}]
EOT
cat >"$out/hook-context.json" <<'EOT'
[{"Text":"Noted: tabs, not spaces."}]
EOT

# A session of two turns: a prompt, an answer with a shell call, its
# output, a final answer; then resumed with a second prompt.
session "$out/tools" "$out/tools-1.json" 0 "What is in this repository? Run ls to check."
sid=$(sed -n 's/^session id: //p' "$out/tools/stderr.txt")
session "$out/tools" "$out/tools-2.json" 0 resume "$sid" "And how should retries work?"
# A session whose hooks add context: where Codex puts it.
session "$out/hook-context" "$out/hook-context.json" 1 "Remember: tabs, not spaces."
"$codex" --version >"$out/VERSION"

# collect W NAME: the rollout, the hook payloads and notify arguments in
# the order written, as OUT_DIR/recorded/NAME/ (what testdata/agents/codex
# holds).
collect() {
	local w=$1 dst=$out/recorded/$2 f ev n
	mkdir -p "$dst"
	cp "$(find "$w/home/.codex/sessions" -name 'rollout-*.jsonl')" "$dst/rollout.jsonl"
	declare -A seen=()
	for f in $(ls "$w/captures" | sort -t- -k3n); do
		case $f in
		hook-*) ev=${f#hook-}; ev=${ev%%-*}; n=$((${seen[$ev]:-0} + 1)); seen[$ev]=$n
			cp "$w/captures/$f" "$dst/hook-$ev-$n.json" ;;
		notify-*) n=$((${seen[notify]:-0} + 1)); seen[notify]=$n
			cp "$w/captures/$f" "$dst/notify-$n.json" ;;
		esac
	done
}
collect "$out/tools" tools
collect "$out/hook-context" hook-context
cp "$out/VERSION" "$out/recorded/VERSION"
