package eval

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	old := &ScoreFile{Scenarios: []ScenarioScore{
		{Name: "a", Passed: []string{"x", "y", "z"}, Failed: []string{"w"}},
		{Name: "b", Passed: []string{"x"}},
		{Name: "c", NotRecorded: true, Passed: []string{}, Failed: []string{}},
		{Name: "d", Passed: []string{"x"}},
	}}
	cur := &ScoreFile{Scenarios: []ScenarioScore{
		{Name: "a", Passed: []string{"x", "w", "v"}, Failed: []string{"y"}},
		{Name: "d", NotRecorded: true, Passed: []string{}, Failed: []string{}},
		{Name: "e", Passed: []string{"x"}, Failed: []string{"y"}},
	}}
	d := Compare(old, cur)
	var reg, imp []string
	for _, c := range d.Regressions {
		reg = append(reg, c.String())
	}
	for _, c := range d.Improvements {
		imp = append(imp, c.String())
	}
	wantReg := []string{"a/y: passed, fails now", "a/z: passed, no longer checked", "b: the scenario disappeared", "d/x: passed, not recorded now"}
	wantImp := []string{"a/w: failed, passes now", "a/v: new, passes", "e: new scenario, 1 of 2 passed"}
	if !reflect.DeepEqual(reg, wantReg) {
		t.Errorf("regressions\n%s\nwant\n%s", strings.Join(reg, "\n"), strings.Join(wantReg, "\n"))
	}
	if !reflect.DeepEqual(imp, wantImp) {
		t.Errorf("improvements\n%s\nwant\n%s", strings.Join(imp, "\n"), strings.Join(wantImp, "\n"))
	}
	if d := Compare(old, old); len(d.Regressions)+len(d.Improvements) != 0 {
		t.Errorf("a file against itself: %+v", d)
	}
	if d := Compare(old, cur.Only([]string{"a"})); len(d.Regressions) != 4 {
		t.Errorf("Only keeps a: %+v", d.Regressions)
	}
	if d := Compare(old.Only([]string{"a"}), cur.Only([]string{"a"})); len(d.Regressions) != 2 {
		t.Errorf("a alone: %+v", d.Regressions)
	}
}

func TestScore(t *testing.T) {
	sc := func(name, rules string, cats ...string) *Scenario {
		s := &Scenario{Name: name, Rules: rules}
		for i, c := range cats {
			s.Expect = append(s.Expect, Expectation{Name: string(rune('a' + i)), Category: c, Commit: ptr(true)})
		}
		return s
	}
	runs := []*Ran{
		{Scenario: sc("one", "", CategoryKept, CategorySafety), Result: Result{Committed: true}},
		{Scenario: sc("two", "", CategoryKept), Result: Result{}, Err: errors.New("lint")},
		{Scenario: sc("three", "merging needs judgement", CategoryDuplicates), Result: Result{Committed: true}},
		{Scenario: sc("four", "", CategoryTidy), NotRecorded: true},
	}
	rep := Score("rules", "", runs)
	if rep.Total != (Tally{2, 3}) || rep.ByDesign != (Tally{1, 1}) || rep.NotRecorded != 1 || rep.Errors != 1 || rep.ByDesignCount() != 1 {
		t.Fatalf("report %+v", rep)
	}
	want := map[string]Tally{CategoryKept: {1, 2}, CategorySafety: {1, 1}, CategoryDuplicates: {0, 0}, CategoryTidy: {0, 0}, CategoryLifecycle: {0, 0}}
	for _, c := range rep.Categories {
		if c.Tally != want[c.Category] {
			t.Errorf("%s: %+v", c.Category, c.Tally)
		}
	}
	f := rep.File()
	b, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"name": "four",`+"\n"+`      "not_recorded": true`) || strings.Contains(string(b), "elapsed") {
		t.Errorf("score file:\n%s", b)
	}
	if f.Scenarios[0].Name != "four" || !f.Scenarios[3].Error || f.Scenarios[3].Name != "two" {
		t.Errorf("order/error: %+v", f.Scenarios)
	}
	if llm := Score("llm", "replay", runs); llm.ByDesign.Total != 0 || llm.Total.Total != 4 {
		t.Errorf("by design is the rules engine's only: %+v", llm)
	}
}
