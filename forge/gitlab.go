package forge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
)

// The glab commands (gitlab-org/cli, internal/commands/mr/list and api,
// checked on the December 2025 sources): mr list --repo takes
// GROUP/…/REPO or the repository's URL, --source-branch and
// --target-branch filter, open requests by default, --output json prints
// the API's merge requests ("null" or "[]" when none). mr create and mr
// update take the description only as a --description argument (mr
// update's "-" opens an editor), which cannot carry a large body; so the
// request is created and updated with `glab api` and a JSON body read
// from stdin (--input -), which glab sends as it is.

type glabMR struct {
	IID    int    `json:"iid"`
	WebURL string `json:"web_url"`
	// A fork's request from a branch of the same name has another source
	// project.
	Source int `json:"source_project_id"`
	Target int `json:"target_project_id"`
}

// ours is the first request whose branch is in the project itself.
func ours(open []glabMR) (glabMR, bool) {
	for _, mr := range open {
		if mr.Source == mr.Target {
			return mr, true
		}
	}
	return glabMR{}, false
}

func (t tool) openGitLab(ctx context.Context) (Result, error) {
	out, err := t.run(ctx, nil, args(words("mr", "list"), flag("--repo", t.host.RepoFlag()),
		flag("--source-branch", t.req.Head), flag("--target-branch", t.req.Base), words("--output", "json"))...)
	if err != nil {
		return Result{}, err
	}
	var open []glabMR
	if err := json.Unmarshal(out, &open); err != nil {
		return Result{}, fmt.Errorf("glab mr list printed %q, not the JSON of merge requests: %w", outStart(out), err)
	}
	endpoint := "projects/" + url.PathEscape(t.host.Path) + "/merge_requests"
	fields := map[string]string{"description": string(t.req.Body)}
	method, action := "POST", Created
	if mr, ok := ours(open); ok {
		endpoint += fmt.Sprintf("/%d", mr.IID)
		method, action = "PUT", Updated
	} else {
		fields["source_branch"], fields["target_branch"], fields["title"] = t.req.Head, t.req.Base, t.req.Title
	}
	in, err := json.Marshal(fields)
	if err != nil {
		return Result{}, fmt.Errorf("merge request fields: %w", err)
	}
	out, err = t.run(ctx, in, "api", "-X", method, "--hostname", t.host.Name, endpoint,
		"--input", "-", "-H", "Content-Type: application/json")
	if err != nil {
		return Result{}, err
	}
	var mr glabMR
	if err := json.Unmarshal(out, &mr); err != nil || mr.IID == 0 || mr.WebURL == "" {
		return Result{}, fmt.Errorf("glab api %s %s printed %q, not a merge request", method, endpoint, outStart(out))
	}
	return Result{Action: action, URL: mr.WebURL, Number: mr.IID}, nil
}
