package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The gh commands, as gh v2 defines them (cli/cli pkg/cmd/pr/{list,
// create,edit}): --repo [HOST/]OWNER/REPO on every pr command; pr list
// --head and --base filter by branch names, --state open, --json prints
// an array ("[]" when none), in which isCrossRepository tells a fork's
// request from a branch of the same name (api/query_builder.go); pr create and pr edit read --body-file - from
// stdin and print the request's URL as their last line; pr create needs
// --title and a body when it cannot prompt.

type ghPR struct {
	Number int    `json:"number"`
	URL    string `json:"url"`
	// Cross: the head is a fork's branch of the same name, not ours.
	Cross bool `json:"isCrossRepository"`
}

func (t tool) openGitHub(ctx context.Context) (Result, error) {
	repo := flag("--repo", t.host.RepoFlag())
	out, err := t.run(ctx, nil, args(words("pr", "list"), repo, flag("--head", t.req.Head), flag("--base", t.req.Base),
		words("--state", "open", "--json", "number,url,isCrossRepository"))...)
	if err != nil {
		return Result{}, err
	}
	var open []ghPR
	if err := json.Unmarshal(out, &open); err != nil {
		return Result{}, fmt.Errorf("gh pr list printed %q, not the JSON of pull requests: %w", outStart(out), err)
	}
	for _, pr := range open {
		if pr.Cross {
			continue
		}
		if _, err := t.run(ctx, t.req.Body, args(words("pr", "edit", fmt.Sprint(pr.Number)), repo, words("--body-file", "-"))...); err != nil {
			return Result{}, err
		}
		return Result{Action: Updated, URL: pr.URL, Number: pr.Number}, nil
	}
	out, err = t.run(ctx, t.req.Body, ghCreate(t.host, t.req, "-")...)
	if err != nil {
		return Result{}, err
	}
	url := lastLines(string(out), 1)
	n, ok := numberAfter(url, "/pull/")
	if !ok {
		return Result{}, fmt.Errorf("gh pr create printed %q, not the URL of a pull request", outStart(out))
	}
	return Result{Action: Created, URL: url, Number: n}, nil
}

// ghCreate is `gh pr create` with the body read from bodyFile ("-":
// stdin).
func ghCreate(h Host, r Request, bodyFile string) []string {
	return args(words("pr", "create"), flag("--repo", h.RepoFlag()), flag("--head", r.Head), flag("--base", r.Base),
		flag("--title", r.Title), flag("--body-file", bodyFile))
}

// outStart is the start of a tool's output, for a message.
func outStart(out []byte) string {
	s := strings.TrimSpace(string(out))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
