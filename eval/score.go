package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// Tally counts expectations.
type Tally struct {
	Passed int `json:"passed"`
	Total  int `json:"total"`
}

func (t *Tally) add(passed bool) {
	t.Total++
	if passed {
		t.Passed++
	}
}

// Percent is the share passed, 0 when there is nothing to count.
func (t Tally) Percent() float64 {
	if t.Total == 0 {
		return 0
	}
	return 100 * float64(t.Passed) / float64(t.Total)
}

// CategoryTally is a category's count.
type CategoryTally struct {
	Category string `json:"category"`
	Tally
}

// ScenarioReport is one scenario scored.
type ScenarioReport struct {
	Name string `json:"name"`
	// ByDesign: the rules engine ran a scenario it cannot satisfy by
	// design (its rules: field); scored apart.
	ByDesign    bool      `json:"by_design,omitempty"`
	NotRecorded bool      `json:"not_recorded,omitempty"`
	Error       string    `json:"error,omitempty"`
	Committed   bool      `json:"committed"`
	Tally       Tally     `json:"tally"`
	Outcomes    []Outcome `json:"expectations"`
	ElapsedMS   int64     `json:"elapsed_ms"`
	InputTokens int64     `json:"input_tokens"`
	OutputTok   int64     `json:"output_tokens"`
	Turns       int       `json:"turns"`
	Kept        string    `json:"kept,omitempty"`
}

// Report is a suite scored: per scenario, per category and overall
// (scenarios by design and not recorded apart).
type Report struct {
	Engine      string           `json:"engine"`
	Model       string           `json:"model,omitempty"`
	Scenarios   []ScenarioReport `json:"scenarios"`
	Categories  []CategoryTally  `json:"categories"`
	Total       Tally            `json:"total"`
	ByDesign    Tally            `json:"by_design"`
	NotRecorded int              `json:"not_recorded"`
	Errors      int              `json:"errors"`
}

// ByDesignCount is the number of scenarios scored apart by design.
func (r *Report) ByDesignCount() int {
	n := 0
	for _, s := range r.Scenarios {
		if s.ByDesign {
			n++
		}
	}
	return n
}

// Score scores the runs of a suite with engine (and model).
func Score(engine, model string, runs []*Ran) *Report {
	rep := &Report{Engine: engine, Model: model, Scenarios: []ScenarioReport{}}
	cats := map[string]*Tally{}
	for _, c := range Categories() {
		cats[c] = &Tally{}
	}
	for _, ran := range runs {
		sr := scoreOne(engine, ran)
		switch {
		case sr.NotRecorded:
			rep.NotRecorded++
		case sr.ByDesign:
			rep.ByDesign.Passed += sr.Tally.Passed
			rep.ByDesign.Total += sr.Tally.Total
		default:
			for _, o := range sr.Outcomes {
				cats[o.Category].add(o.Passed)
				rep.Total.add(o.Passed)
			}
		}
		if sr.Error != "" {
			rep.Errors++
		}
		rep.Scenarios = append(rep.Scenarios, sr)
	}
	for _, c := range Categories() {
		rep.Categories = append(rep.Categories, CategoryTally{Category: c, Tally: *cats[c]})
	}
	return rep
}

func scoreOne(engine string, ran *Ran) ScenarioReport {
	sc := ran.Scenario
	sr := ScenarioReport{Name: sc.Name, ByDesign: engine == "rules" && sc.Rules != "", NotRecorded: ran.NotRecorded,
		Committed: ran.Result.Committed, Outcomes: []Outcome{}, Kept: ran.Kept,
		ElapsedMS: ran.Elapsed.Milliseconds(), InputTokens: ran.Usage.InputTokens, OutputTok: ran.Usage.OutputTokens, Turns: ran.Turns}
	if ran.NotRecorded {
		return sr
	}
	if ran.Err != nil {
		sr.Error = ran.Err.Error()
	}
	sr.Outcomes = Check(sc, ran.Result)
	for _, o := range sr.Outcomes {
		sr.Tally.add(o.Passed)
	}
	return sr
}

// ScoreFile is what a committed score file holds: the engine, the
// totals and each scenario's passed and failed expectation names; no
// times, tokens or reasons, so that it changes only when a score does.
type ScoreFile struct {
	Engine      string          `json:"engine"`
	Model       string          `json:"model,omitempty"`
	Total       Tally           `json:"total"`
	Categories  []CategoryTally `json:"categories"`
	ByDesign    Tally           `json:"by_design"`
	NotRecorded int             `json:"not_recorded"`
	Scenarios   []ScenarioScore `json:"scenarios"`
}

// ScenarioScore is one scenario in a score file.
type ScenarioScore struct {
	Name        string   `json:"name"`
	ByDesign    bool     `json:"by_design,omitempty"`
	NotRecorded bool     `json:"not_recorded,omitempty"`
	Error       bool     `json:"error,omitempty"`
	Passed      []string `json:"passed"`
	Failed      []string `json:"failed"`
}

// File is the report as a score file.
func (r *Report) File() *ScoreFile {
	f := &ScoreFile{Engine: r.Engine, Model: r.Model, Total: r.Total, Categories: r.Categories, ByDesign: r.ByDesign,
		NotRecorded: r.NotRecorded, Scenarios: []ScenarioScore{}}
	for _, s := range r.Scenarios {
		ss := ScenarioScore{Name: s.Name, ByDesign: s.ByDesign, NotRecorded: s.NotRecorded, Error: s.Error != "", Passed: []string{}, Failed: []string{}}
		for _, o := range s.Outcomes {
			if o.Passed {
				ss.Passed = append(ss.Passed, o.Name)
			} else {
				ss.Failed = append(ss.Failed, o.Name)
			}
		}
		f.Scenarios = append(f.Scenarios, ss)
	}
	sort.Slice(f.Scenarios, func(i, j int) bool { return f.Scenarios[i].Name < f.Scenarios[j].Name })
	return f
}

// Marshal renders a score file: indented JSON in a fixed key order,
// ending in a newline.
func (f *ScoreFile) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ReadScoreFile reads a score file strictly.
func ReadScoreFile(path string) (*ScoreFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f ScoreFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a score file: %w", path, err)
	}
	return &f, nil
}

// Only is f restricted to the named scenarios (a run of some of them is
// compared with those only).
func (f *ScoreFile) Only(names []string) *ScoreFile {
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	g := *f
	g.Scenarios = nil
	for _, s := range f.Scenarios {
		if keep[s.Name] {
			g.Scenarios = append(g.Scenarios, s)
		}
	}
	return &g
}

// Change is one difference between two score files.
type Change struct {
	Scenario    string `json:"scenario"`
	Expectation string `json:"expectation,omitempty"`
	What        string `json:"what"`
}

func (c Change) String() string {
	if c.Expectation == "" {
		return c.Scenario + ": " + c.What
	}
	return c.Scenario + "/" + c.Expectation + ": " + c.What
}

// Diff is what changed from one score file to the next.
type Diff struct {
	Regressions  []Change `json:"regressions"`
	Improvements []Change `json:"improvements"`
}

// Compare lists the regressions from old to cur (an expectation passed
// in old that fails now or is no longer checked, a scenario that
// disappeared) and the improvements (one failed in old that passes now,
// a new expectation or scenario that passes).
func Compare(old, cur *ScoreFile) Diff {
	d := Diff{Regressions: []Change{}, Improvements: []Change{}}
	now := map[string]ScenarioScore{}
	for _, s := range cur.Scenarios {
		now[s.Name] = s
	}
	was := map[string]bool{}
	for _, o := range old.Scenarios {
		was[o.Name] = true
		n, ok := now[o.Name]
		if !ok {
			if len(o.Passed) > 0 || !o.NotRecorded {
				d.Regressions = append(d.Regressions, Change{Scenario: o.Name, What: "the scenario disappeared"})
			}
			continue
		}
		passed, failed := set(n.Passed), set(n.Failed)
		for _, e := range o.Passed {
			switch {
			case failed[e]:
				d.Regressions = append(d.Regressions, Change{Scenario: o.Name, Expectation: e, What: "passed, fails now"})
			case !passed[e]:
				what := "passed, no longer checked"
				if n.NotRecorded {
					what = "passed, not recorded now"
				}
				d.Regressions = append(d.Regressions, Change{Scenario: o.Name, Expectation: e, What: what})
			}
		}
		oldAll := set(append(append([]string{}, o.Passed...), o.Failed...))
		oldFailed := set(o.Failed)
		for _, e := range n.Passed {
			switch {
			case oldFailed[e]:
				d.Improvements = append(d.Improvements, Change{Scenario: o.Name, Expectation: e, What: "failed, passes now"})
			case !oldAll[e]:
				d.Improvements = append(d.Improvements, Change{Scenario: o.Name, Expectation: e, What: "new, passes"})
			}
		}
	}
	for _, n := range cur.Scenarios {
		if !was[n.Name] && len(n.Passed) > 0 {
			d.Improvements = append(d.Improvements, Change{Scenario: n.Name, What: fmt.Sprintf("new scenario, %d of %d passed", len(n.Passed), len(n.Passed)+len(n.Failed))})
		}
	}
	return d
}

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}
