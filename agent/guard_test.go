package agent

import (
	"encoding/json"
	"strings"
	"testing"
)

func toolEvent(tool, cwd string, input map[string]any) Event {
	b, _ := json.Marshal(input)
	return Event{Kind: PreTool, Name: "PreToolUse", Cwd: cwd, Tool: tool, ToolInput: b}
}

func bash(cmd string) Event {
	return toolEvent("Bash", "/home/ann/shop", map[string]any{"command": cmd})
}

func TestGuardFileTools(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ev    Event
		deny  bool
		fold  bool
		where string // the path the reason names
	}{
		{name: "write memory", ev: toolEvent("Write", "/home/ann/shop", map[string]any{"file_path": "/home/ann/shop/.yoi/memory/decisions/db.md", "content": "x"}), deny: true, where: ".yoi/memory/decisions/db.md"},
		{name: "edit knowledge", ev: toolEvent("Edit", "/home/ann/shop", map[string]any{"file_path": "/home/ann/shop/.yoi/knowledge/retry.md", "old_string": "a", "new_string": "b"}), deny: true, where: ".yoi/knowledge/retry.md"},
		{name: "multiedit summary", ev: toolEvent("MultiEdit", "/home/ann/shop", map[string]any{"file_path": "/home/ann/shop/.yoi/memory/summary.md", "edits": []any{}}), deny: true},
		{name: "notebook", ev: toolEvent("NotebookEdit", "/home/ann/shop", map[string]any{"notebook_path": "/home/ann/shop/.yoi/knowledge/nb.ipynb", "new_source": "x"}), deny: true},
		{name: "relative path", ev: toolEvent("Write", "/home/ann/shop", map[string]any{"file_path": ".yoi/memory/requests/r.md"}), deny: true, where: ".yoi/memory/requests/r.md"},
		{name: "relative from inside .yoi", ev: toolEvent("Write", "/home/ann/shop/.yoi", map[string]any{"file_path": "knowledge/x.md"}), deny: true, where: ".yoi/knowledge/x.md"},
		{name: "through dot-dot", ev: toolEvent("Edit", "/home/ann/shop/src", map[string]any{"file_path": "/home/ann/shop/src/../.yoi/memory/summary.md"}), deny: true, where: ".yoi/memory/summary.md"},
		{name: "relative dot-dot", ev: toolEvent("Edit", "/home/ann/shop/.yoi/memory", map[string]any{"file_path": "../knowledge/a.md"}), deny: true},
		{name: "staging", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.yoi/memory/_staging/x.json"}), deny: true},
		{name: "the memory dir itself", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.yoi/memory"}), deny: true},
		{name: "upper case on a case-insensitive fs", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.YOI/Memory/x.md"}), fold: true, deny: true},
		{name: "upper case on a case-sensitive fs", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.YOI/Memory/x.md"})},
		{name: "workflow is the people's", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.yoi/workflow/review.md"})},
		{name: "config", ev: toolEvent("Edit", "/r", map[string]any{"file_path": "/r/.yoi/config"})},
		{name: "a memory dir elsewhere", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/src/memory/alloc.go"})},
		{name: "a .yoi-like name", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.yoi-memory/x.md"})},
		{name: "dot-dot leaves memory", ev: toolEvent("Write", "/r", map[string]any{"file_path": "/r/.yoi/memory/../notes.md"})},
		{name: "read", ev: toolEvent("Read", "/r", map[string]any{"file_path": "/r/.yoi/memory/summary.md"})},
		{name: "grep", ev: toolEvent("Grep", "/r", map[string]any{"pattern": "x", "path": "/r/.yoi"})},
		{name: "mcp tool", ev: toolEvent("mcp__yoimem__memory_write", "/r", map[string]any{"path": "knowledge/x.md"})},
		{name: "no input", ev: Event{Kind: PreTool, Tool: "Write"}},
		{name: "input not an object", ev: Event{Kind: PreTool, Tool: "Write", ToolInput: json.RawMessage(`"x"`)}},
		{name: "not a tool event", ev: Event{Kind: Stop, Tool: "Write", ToolInput: json.RawMessage(`{"file_path":"/r/.yoi/memory/a.md"}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deny, reason := Guard{FoldCase: tc.fold}.Tool(tc.ev)
			if deny != tc.deny {
				t.Fatalf("deny = %v (%q); want %v", deny, reason, tc.deny)
			}
			if !deny {
				if reason != "" {
					t.Errorf("reason %q on an allowed call", reason)
				}
				return
			}
			for _, want := range []string{"git yoimem memory write", "memory_write", "memory_edit", "memory_delete"} {
				if !strings.Contains(reason, want) {
					t.Errorf("reason %q does not name %s", reason, want)
				}
			}
			if tc.where != "" && !strings.Contains(reason, tc.where) {
				t.Errorf("reason %q does not name %s", reason, tc.where)
			}
		})
	}
}

func TestGuardBash(t *testing.T) {
	deny := []string{
		`echo "- use pgx" >> .yoi/memory/summary.md`,
		`echo x > .yoi/knowledge/retry.md`,
		`printf '%s\n' a b >.yoi/knowledge/retry.md`,
		`cat notes.txt 1> .yoi/memory/decisions/db.md`,
		`cat notes.txt &> .yoi/memory/decisions/db.md`,
		`cat notes.txt >| .yoi/memory/decisions/db.md`,
		`cat > .yoi/knowledge/new.md <<'EOF'
---
description: x
---
body
EOF`,
		`make test && echo done > .yoi/memory/summary.md`,
		`cd src; echo x > ../.yoi/memory/summary.md`,
		`echo x | tee .yoi/memory/summary.md`,
		`echo x | tee -a /tmp/log .yoi/knowledge/a.md`,
		`echo x | sudo tee .yoi/knowledge/a.md > /dev/null`,
		`cp /tmp/draft.md .yoi/knowledge/retry.md`,
		`cp -r drafts/. .yoi/knowledge/`,
		`cp -t .yoi/knowledge a.md b.md`,
		`cp --target-directory=.yoi/knowledge a.md`,
		`mv draft.md .yoi/memory/requests/export.md`,
		`mv .yoi/knowledge/old.md /tmp/`,
		`sed -i 's/pgx/sqlx/' .yoi/memory/decisions/db.md`,
		`sed -i.bak -e 's/a/b/' .yoi/knowledge/a.md`,
		`sed --in-place 's/a/b/' .yoi/knowledge/a.md`,
		`sed -ni 's/a/b/p' .yoi/knowledge/a.md`,
		`perl -pi -e 's/a/b/' .yoi/knowledge/a.md`,
		`rm .yoi/memory/decisions/db.md`,
		`rm -rf .yoi/knowledge`,
		`rm -rf .yoi`,
		`rm -f -- .yoi/knowledge/*.md`,
		`rm .yoi/*/retry.md`,
		`git rm .yoi/knowledge/retry.md`,
		`git mv .yoi/knowledge/a.md .yoi/knowledge/b.md`,
		`touch .yoi/knowledge/new.md`,
		`truncate -s 0 .yoi/memory/summary.md`,
		`chmod u+w .yoi/knowledge/locked.md`,
		`mkdir -p .yoi/knowledge/sub`,
		`ln -sf /tmp/x .yoi/knowledge/x.md`,
		`dd if=/dev/zero of=.yoi/memory/summary.md bs=1 count=1`,
		`install -m 644 a.md .yoi/knowledge/a.md`,
		`rsync -a drafts/ .yoi/knowledge/`,
		`find .yoi/knowledge -name '*.md' -delete`,
		`find .yoi/memory -type f -exec rm {} +`,
		`ls .yoi/knowledge/*.md | xargs rm`,
		`bash -c 'echo x > .yoi/memory/summary.md'`,
		`sh -c "rm .yoi/knowledge/a.md"`,
		`eval "rm .yoi/knowledge/a.md"`,
		`(cd /tmp && echo x) > /home/ann/shop/.yoi/memory/summary.md`,
		`FOO=1 env BAR=2 nohup rm .yoi/knowledge/a.md`,
		`echo $(rm .yoi/knowledge/a.md)`,
		"echo `rm .yoi/knowledge/a.md`",
		`true || rm .yoi/knowledge/a.md &`,
		`if true; then rm .yoi/knowledge/a.md; fi`,
		`for f in a b; do echo $f >> .yoi/knowledge/list.md; done`,
		`echo x > "/home/ann/shop/.yoi/memory/sum mary.md"`,
		`echo x > .yoi/memory/../knowledge/a.md`,
		`echo x > ./.yoi//memory/summary.md`,
		`echo x>.yoi/memory/summary.md`,
		`command rm .yoi/knowledge/a.md`,
		`/bin/rm .yoi/knowledge/a.md`,
		`time sed -i s/a/b/ .yoi/knowledge/a.md`,
		`python -c "open('.yoi/memory/x.md','w').write('x')"`,
		`python3 -c 'import pathlib; pathlib.Path(".yoi/knowledge/a.md").write_text("x")'`,
		`node -e 'require("fs").writeFileSync(".yoi/knowledge/a.md", "x")'`,
		`ruby -e 'File.write(".yoi/knowledge/a.md", "x")'`,
		`python3 -c "import os; os.remove('.yoi/knowledge/a.md')"`,
		`pushd .yoi && rm memory/summary.md`,
		`awk -i inplace '{print}' .yoi/knowledge/a.md`,
		`gawk -i inplace -f fix.awk .yoi/knowledge/a.md`,
		`git checkout -- .yoi/knowledge/a.md`,
		`git checkout HEAD~1 -- .yoi/memory/summary.md`,
		`git restore .yoi/knowledge/a.md`,
		`git restore --source=HEAD~2 .yoi/memory`,
		`git clean -fdx .yoi`,
		`curl -o .yoi/knowledge/a.md http://x`,
		`curl -sSL --output .yoi/knowledge/a.md http://x`,
		`wget -O .yoi/knowledge/a.md http://x`,
		`wget -P .yoi/knowledge http://x/a.md`,
		`tar -xf x.tar -C .yoi/knowledge`,
		`tar xzf x.tgz --directory=.yoi/memory`,
		`unzip x.zip -d .yoi/knowledge`,
		`patch .yoi/knowledge/a.md < fix.diff`,
		`find . -path './.yoi/memory/*' -delete`,
		`find . -path './.yoi/knowledge/*.md' -exec rm {} +`,
		`cp -r /tmp/backup/memory .yoi/`,
		`cp -a ../other/.yoi/knowledge .yoi`,
		`mv drafts/knowledge .yoi/`,
		`ln -s /tmp/mem .yoi/memory`,
	}
	allow := []string{
		`cat .yoi/memory/summary.md`,
		`grep -r foo .yoi`,
		`grep -rn "retry" .yoi/knowledge/`,
		`ls -la .yoi/memory .yoi/knowledge`,
		`head -n 20 .yoi/memory/decisions/db.md`,
		`wc -l .yoi/knowledge/*.md`,
		`git diff .yoi`,
		`git log -p -- .yoi/memory`,
		`git add .yoi/memory/summary.md`,
		`git yoimem memory write knowledge/retry.md < draft.md`,
		`git yoimem memory delete .yoi/knowledge/old.md`,
		`git yoimem show retry`,
		`cat .yoi/memory/summary.md > /tmp/summary.md`,
		`cat < .yoi/memory/summary.md`,
		`sed -n '1,5p' .yoi/knowledge/a.md`,
		`sed 's/a/b/' .yoi/knowledge/a.md > /tmp/a.md`,
		`sed -i 's#.yoi/memory/#.yoi/notes/#' README.md`,
		`cp .yoi/knowledge/retry.md /tmp/`,
		`cp .yoi/knowledge/retry.md docs/retry.md`,
		`find .yoi -name '*.md'`,
		`find .yoi/knowledge -newer x -print`,
		`echo ".yoi/memory/summary.md" > notes.txt`,
		`echo rm .yoi/knowledge/a.md`,
		`echo "rm .yoi/knowledge/a.md > x"`,
		`make test 2>&1 | tee build.log`,
		`go test ./... > /tmp/out 2>&1`,
		`diff .yoi/knowledge/a.md .yoi/knowledge/b.md`,
		`rm -rf src/memory`,
		`rm -rf node_modules`,
		`echo x > .yoi/workflow/review.md`,
		`cat <<EOF
rm .yoi/knowledge/a.md
echo x > .yoi/memory/summary.md
EOF`,
		`python3 -m pytest tests/`,
		`git yoimem context`,
		`jq . .yoi/knowledge/a.md`,
		``,
		`   `,
		`# rm .yoi/knowledge/a.md`,
		`ls .yoi/memory # > .yoi/memory/x`,
		`mv build/out.bin dist/`,
		`sed -i 's/a/b/' src/main.go`,
		`rm -i .yoi-old/knowledge/a.md`,
		`python3 -c "print(open('.yoi/memory/summary.md').read())"`,
		`node -e 'console.log(require("fs").readFileSync(".yoi/knowledge/a.md", "utf8"))'`,
		`python3 -c "open('/tmp/out.md','w').write('x')"`,
		`python3 scripts/write.py .yoi/knowledge/a.md`,
		`pushd .yoi && ls memory`,
		`awk '{print}' .yoi/knowledge/a.md`,
		`awk -i inplace '{print}' src/a.txt`,
		`git checkout main`,
		`git checkout -b feature`,
		`git checkout -- src/main.go`,
		`git restore --staged src/main.go`,
		`git clean -fd build/`,
		`git show HEAD:.yoi/memory/summary.md`,
		`curl -o /tmp/a.md http://x/.yoi/knowledge/a.md`,
		`wget -O - http://x > /tmp/a`,
		`tar -cf /tmp/memory.tar .yoi/memory`,
		`tar -tf x.tar -C .yoi/knowledge`,
		`unzip -l x.zip`,
		`zip -r /tmp/k.zip .yoi/knowledge`,
		`patch -p1 --dry-run < fix.diff`,
		`find . -name '*.tmp' -delete`,
		`find . -path './.yoi/memory/*' -print`,
		`cp -r templates/workflow .yoi/`,
		`cp notes.md .yoi/`,
		`find . -path ./.yoi -prune -o -name '*.tmp' -delete`,
		`find . ! -path './.yoi/*' -name '*.tmp' -delete`,
		`find . -not -path './.yoi/memory/*' -name '*.tmp' -exec rm {} +`,
		`python3 -c "import sys; sys.stdout.write(open('.yoi/memory/summary.md').read())"`,
	}
	for _, c := range deny {
		if d, reason := GuardTool(bash(c)); !d {
			t.Errorf("allowed, want denied: %s", c)
		} else if !strings.Contains(reason, "git yoimem memory") || !strings.Contains(reason, "memory_write") {
			t.Errorf("%s: reason %q does not name the memory tools", c, reason)
		}
	}
	for _, c := range allow {
		if d, reason := GuardTool(bash(c)); d {
			t.Errorf("denied (%s), want allowed: %s", reason, c)
		}
	}
}

func TestGuardBashFromInsideYoi(t *testing.T) {
	ev := toolEvent("Bash", "/home/ann/shop/.yoi", map[string]any{"command": "echo x > memory/summary.md"})
	if d, _ := GuardTool(ev); !d {
		t.Error("a relative redirect from .yoi/ into memory/ is allowed")
	}
	ev = toolEvent("Bash", "/home/ann/shop/.yoi", map[string]any{"command": "echo x > workflow/a.md"})
	if d, r := GuardTool(ev); d {
		t.Errorf("denied: %s", r)
	}
}

func FuzzGuardTool(f *testing.F) {
	for _, s := range []string{`echo x > .yoi/memory/a.md`, `cat <<EOF
x
EOF`, `bash -c 'bash -c "rm .yoi/knowledge/a"'`, `echo $(echo $(rm a))`, "`", `'`, `"`, `\`, `<<`, `$(`, `find . -exec`} {
		f.Add("Bash", s, "/r")
		f.Add("Write", s, "")
	}
	f.Fuzz(func(t *testing.T, tool, s, cwd string) {
		key := "command"
		if tool != "Bash" {
			key = "file_path"
		}
		ev := toolEvent(tool, cwd, map[string]any{key: s})
		for _, g := range []Guard{{}, {FoldCase: true}} {
			deny, reason := g.Tool(ev)
			if deny != (reason != "") {
				t.Fatalf("deny %v with reason %q", deny, reason)
			}
		}
	})
}

// TestGuardBashArgv: a shell tool whose command is an argv array (Codex's
// older shell tool) is read as the command it runs.
func TestGuardBashArgv(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		deny bool
	}{
		{[]string{"bash", "-lc", "echo x > .yoi/memory/summary.md"}, true},
		{[]string{"rm", ".yoi/knowledge/a.md"}, true},
		{[]string{"apply_patch", "*** Begin Patch\n*** Add File: .yoi/knowledge/x.md\n+x\n*** End Patch\n"}, true},
		{[]string{"bash", "-lc", "cat .yoi/memory/summary.md"}, false},
		{[]string{"ls", ".yoi"}, false},
	} {
		ev := toolEvent("Bash", "/home/ann/shop", map[string]any{"command": tc.argv})
		if d, r := GuardTool(ev); d != tc.deny {
			t.Errorf("%q: deny = %v (%s); want %v", tc.argv, d, r, tc.deny)
		}
	}
}
