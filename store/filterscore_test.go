package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// inRange is a score range in Go: what the store must select.
func inRange(r ScoreRange, res engine.ExampleResult) bool {
	if res.Status != engine.StatusValid || res.Score == nil {
		return false
	}
	s := *res.Score
	switch {
	case r.Min == 1:
		return s == 1
	case r.Max == 1:
		return r.Min <= s && s <= 1
	}
	return r.Min <= s && s < r.Max
}

// TestPageScoreRange: a score range (a bar of the histogram), alone or with other
// conditions, in index or score order, paged in small pages with a large and a small scan
// budget, yields exactly the valid results whose score is in it; Total is given and right
// when the range is the filter (status valid besides), from the contribution index; the
// bins' counts are the histogram's.
func TestPageScoreRange(t *testing.T) {
	s, _ := open(t)
	id, all := exploredRun(t, s, 700)
	charts, err := s.Charts(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(b int) { scanBudget = b }(scanBudget)
	type row struct {
		name    string
		f       ResultFilter
		counted bool
	}
	var rows []row
	for bin := range 10 {
		// [0.9, 1) is 0.9 to 1 below 1 (imperfect): a max of 1 takes 1.
		r := &ScoreRange{Min: float64(bin) / 10, Max: float64(bin+1) / 10}
		rows = append(rows, row{fmt.Sprintf("bin %d", bin), ResultFilter{Score: r, Imperfect: bin == 9}, true})
	}
	one := &ScoreRange{Min: 1, Max: 1}
	rows = append(rows,
		row{"perfect", ResultFilter{Score: one}, true},
		row{"perfect by score", ResultFilter{Score: one, ByScore: true}, true},
		row{"0 to 1", ResultFilter{Score: &ScoreRange{Min: 0, Max: 1}}, true},
		row{"0.5 to 1 by score", ResultFilter{Score: &ScoreRange{Min: 0.5, Max: 1}, ByScore: true}, true},
		row{"0 to 0.5 valid", ResultFilter{Score: &ScoreRange{Min: 0, Max: 0.5}, Status: engine.StatusValid}, true},
		row{"0 to 0.5 errors", ResultFilter{Score: &ScoreRange{Min: 0, Max: 0.5}, Status: engine.StatusExecutionError}, false},
		row{"0.25 to 0.8 imperfect", ResultFilter{Score: &ScoreRange{Min: 0.25, Max: 0.8}, Imperfect: true}, true},
		row{"perfect imperfect", ResultFilter{Score: one, Imperfect: true}, true},
		row{"0 to 1 imperfect by score", ResultFilter{Score: &ScoreRange{Min: 0, Max: 1}, Imperfect: true, ByScore: true}, true},
		row{"0 to 1 label wrong", ResultFilter{Score: &ScoreRange{Min: 0, Max: 1}, Wrong: []string{"label"}}, false},
		row{"0 to 1 label wrong by score", ResultFilter{Score: &ScoreRange{Min: 0, Max: 1}, Wrong: []string{"label"}, ByScore: true}, false},
		row{"0.5 to 1 text", ResultFilter{Score: &ScoreRange{Min: 0.5, Max: 1}, Text: "needle"}, false},
	)
	for _, budget := range []int{30_000, 9} {
		scanBudget = budget
		for _, c := range rows {
			t.Run(fmt.Sprintf("%s/budget %d", c.name, budget), func(t *testing.T) {
				plain := c.f // brute knows no range: its selection (in its order) kept where in range
				plain.Score = nil
				want := []int{}
				for _, i := range brute(plain, all) {
					if inRange(*c.f.Score, all[i]) {
						want = append(want, i)
					}
				}
				got := []int{}
				for after, pages := First, 0; ; pages++ {
					if pages > len(all) {
						t.Fatal("the pages do not end")
					}
					p, err := s.Page(id, PageQuery{Filter: c.f, After: after, Limit: 23})
					if err != nil {
						t.Fatal(err)
					}
					for _, sh := range p.Results {
						got = append(got, sh.Index)
					}
					if (p.Total != nil) != c.counted {
						t.Errorf("Total given %v, want %v", p.Total != nil, c.counted)
					} else if p.Total != nil && *p.Total != len(want) {
						t.Errorf("Total %d, want %d", *p.Total, len(want))
					}
					if p.Next == -1 {
						break
					}
					after = p.Next
				}
				if !slices.Equal(got, want) {
					t.Errorf("pages gave %d results %v\nwant %d %v", len(got), got, len(want), want)
				}
				if strings.HasPrefix(c.name, "bin ") || c.name == "perfect" {
					bin := 10
					if c.name != "perfect" {
						fmt.Sscanf(c.name, "bin %d", &bin)
					}
					if charts.Histogram[bin] != len(want) {
						t.Errorf("the histogram's bar %d counts %d, the range %d", bin, charts.Histogram[bin], len(want))
					}
				}
			})
		}
	}
}

// TestCheckScoreRange: score_min and score_max each a number in [0, 1], min below max
// but for 1 and 1; anything else refused, saying what is allowed under the caller's name.
func TestCheckScoreRange(t *testing.T) {
	for _, c := range []struct {
		min, max string // "-" for not given
		want     *ScoreRange
		refusal  string
	}{
		{"0.4", "0.5", &ScoreRange{Min: 0.4, Max: 0.5}, ""},
		{"1", "1", &ScoreRange{Min: 1, Max: 1}, ""},
		{"0.9", "-", &ScoreRange{Min: 0.9, Max: 1}, ""},
		{"-", "0.1", &ScoreRange{Min: 0, Max: 0.1}, ""},
		{"0.5", "0.5", nil, "--score-min 0.5 is not below --score-max 0.5"},
		{"0.6", "0.5", nil, "is not below"},
		{"-0.1", "0.5", nil, `--score-min is a number from 0 to 1, not "-0.1"`},
		{"0", "1.5", nil, `--score-max is a number from 0 to 1, not "1.5"`},
		{"NaN", "-", nil, "a number from 0 to 1"},
		{"", "-", nil, "a number from 0 to 1"},
		{"abc", "-", nil, "a number from 0 to 1"},
		{"1", "-", &ScoreRange{Min: 1, Max: 1}, ""},
	} {
		f := api.Filter{ScoreMin: c.min, ScoreMax: c.max}
		given := func(k string) bool {
			return k == api.QScoreMin && c.min != "-" || k == api.QScoreMax && c.max != "-"
		}
		got, err := CheckFilter(f, nil, given, func(k string) string { return "--" + strings.ReplaceAll(k, "_", "-") })
		switch {
		case c.refusal != "" && (err == nil || !strings.Contains(err.Error(), c.refusal)):
			t.Errorf("%s..%s: %v, want a refusal with %q", c.min, c.max, err, c.refusal)
		case c.refusal == "" && err != nil:
			t.Errorf("%s..%s refused: %v", c.min, c.max, err)
		case c.refusal == "" && (got.Score == nil || *got.Score != *c.want):
			t.Errorf("%s..%s is %+v, want %+v", c.min, c.max, got.Score, c.want)
		}
	}
}
