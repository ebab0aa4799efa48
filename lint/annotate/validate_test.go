package annotate

import (
	"encoding/json"
	"fmt"
	"net/url"
)

// validateSARIF checks a log against the parts of the SARIF 2.1.0 schema
// that cover what this package writes: required properties, their types,
// the level enum, positive regions, ruleIndex within the driver's rules
// and matching ruleId, and relative URI references.
func validateSARIF(b []byte) []string {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	var log struct {
		Schema  *string `json:"$schema"`
		Version string  `json:"version"`
		Runs    *[]struct {
			Tool *struct {
				Driver *struct {
					Name  *string `json:"name"`
					Rules *[]struct {
						ID               *string `json:"id"`
						ShortDescription *struct {
							Text *string `json:"text"`
						} `json:"shortDescription"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results *[]struct {
				RuleID    *string `json:"ruleId"`
				RuleIndex *int    `json:"ruleIndex"`
				Level     string  `json:"level"`
				Message   *struct {
					Text *string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation *struct {
							URI       *string `json:"uri"`
							URIBaseID string  `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine   *int `json:"startLine"`
							StartColumn *int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		return []string{err.Error()}
	}
	if log.Schema == nil {
		bad("no $schema")
	}
	if log.Version != "2.1.0" {
		bad("version %q, want 2.1.0", log.Version)
	}
	if log.Runs == nil {
		bad("no runs")
		return errs
	}
	for ri, run := range *log.Runs {
		if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == nil || *run.Tool.Driver.Name == "" {
			bad("runs[%d]: no tool.driver.name", ri)
			continue
		}
		var ids []string
		if run.Tool.Driver.Rules != nil {
			for i, r := range *run.Tool.Driver.Rules {
				if r.ID == nil || *r.ID == "" || r.ShortDescription == nil || r.ShortDescription.Text == nil {
					bad("runs[%d].rules[%d]: no id or shortDescription.text", ri, i)
					ids = append(ids, "")
					continue
				}
				ids = append(ids, *r.ID)
			}
		}
		if run.Results == nil {
			bad("runs[%d]: no results (an empty array when there are none)", ri)
			continue
		}
		for i, res := range *run.Results {
			at := fmt.Sprintf("runs[%d].results[%d]", ri, i)
			if res.Message == nil || res.Message.Text == nil {
				bad("%s: no message.text", at)
			}
			if res.RuleID == nil || res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(ids) || ids[*res.RuleIndex] != *res.RuleID {
				bad("%s: ruleId/ruleIndex do not name a rule of the driver", at)
			}
			switch res.Level {
			case "none", "note", "warning", "error":
			default:
				bad("%s: level %q", at, res.Level)
			}
			if len(res.Locations) == 0 {
				bad("%s: no location", at)
			}
			for _, l := range res.Locations {
				pl := l.PhysicalLocation
				if pl == nil || pl.ArtifactLocation == nil || pl.ArtifactLocation.URI == nil {
					bad("%s: no physicalLocation.artifactLocation.uri", at)
					continue
				}
				u, err := url.Parse(*pl.ArtifactLocation.URI)
				if err != nil || u.IsAbs() || u.String() != *pl.ArtifactLocation.URI {
					bad("%s: uri %q is not a relative URI reference", at, *pl.ArtifactLocation.URI)
				}
				if pl.ArtifactLocation.URIBaseID != "%SRCROOT%" {
					bad("%s: uriBaseId %q", at, pl.ArtifactLocation.URIBaseID)
				}
				if r := pl.Region; r != nil {
					if r.StartLine == nil || *r.StartLine < 1 || (r.StartColumn != nil && *r.StartColumn < 1) {
						bad("%s: region lines and columns start at 1", at)
					}
				}
			}
		}
	}
	return errs
}
