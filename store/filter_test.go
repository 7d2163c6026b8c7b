package store

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// labels are the enum values of explored's label dimension.
var labels = []string{"spam", "ham", "eggs"}

// explored is result i of a classify-and-extract run whose rows are recorded: three
// dimensions (label, an enum; amount; note), statuses and codes of every kind, texts in
// mixed case, a quote and a non-ASCII letter.
func explored(i int) engine.ExampleResult {
	exp := labels[i%3]
	row := fmt.Sprintf(`{"input":{"text":"Mail %d from ACME \"Ltd\" café","doc":"files/m%d.pdf"},"expected":{"label":%q,"amount":%d,"note":"n%d"}}`, i, i%5, exp, i%7, i%4)
	res := engine.ExampleResult{Index: i, Row: json.RawMessage(row)}
	switch {
	case i%17 == 3:
		res.Status = engine.StatusExecutionError
		res.Error = &engine.ResultError{Code: diag.ProviderError, Message: "cannot reach http://127.0.0.1:11434 — is the server running?"}
		return res
	case i%11 == 4:
		res.Status = engine.StatusExecutionError
		res.Error = &engine.ResultError{Code: diag.Timeout, Message: "the AI-system did not answer in time"}
		return res
	case i%13 == 5:
		res.Status = engine.StatusInvalidOutput
		res.Prediction = map[string]any{"label": "Spam!"}
		res.Error = &engine.ResultError{Code: diag.InvalidValue, Path: []string{"label"}, Message: `"Spam!" is not one of spam, ham, eggs`}
		return res
	}
	pred := labels[(i/3)%3]
	note := fmt.Sprintf("n%d", i%4)
	if i%6 == 0 {
		note = "Needle in the NOTE"
	}
	res.Status = engine.StatusValid
	res.Prediction = map[string]any{"label": pred, "amount": json.Number(fmt.Sprint(i % 7)), "note": note}
	scores := []float64{b2f(pred == exp), b2f(i%5 != 0), b2f(note == fmt.Sprintf("n%d", i%4))}
	weights := []float64{2, 1, 1}
	sum := 0.0
	for d, p := range [][]string{{"label"}, {"amount"}, {"note"}} {
		res.FieldScores = append(res.FieldScores, engine.FieldScore{Path: p, Score: scores[d], Weight: weights[d]})
		sum += scores[d] * weights[d]
	}
	sum /= 4
	res.Score, res.Contribution = &sum, sum
	return res
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// exploredRun stores results 0..n-1 of explored in a new run.
func exploredRun(t testing.TB, s *Store, n int) (string, []engine.ExampleResult) {
	t.Helper()
	run := create(t, s, "explore.yaml")
	w := s.ResultWriter(run.ID)
	all := make([]engine.ExampleResult, n)
	for i := range n {
		all[i] = explored(i)
		if err := w.Add(all[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return run.ID, all
}

// matches is the filter in Go, over the results as the engine made them: what the store
// must select.
func matches(f ResultFilter, res engine.ExampleResult) bool {
	if f.Status != "" && res.Status != f.Status {
		return false
	}
	if f.Imperfect && res.Contribution >= 1 {
		return false
	}
	if f.Wrong != nil {
		wrong := false
		for _, fs := range res.FieldScores {
			wrong = wrong || (slices.Equal(fs.Path, f.Wrong) && fs.Score == 0 && res.Status == engine.StatusValid)
		}
		if !wrong {
			return false
		}
	}
	if f.Code != "" && (res.Error == nil || string(res.Error.Code) != f.Code) {
		return false
	}
	if f.Text != "" {
		pred, _ := json.Marshal(res.Prediction)
		hay := string(pred) + "\x00" + string(res.Row)
		if res.Error != nil {
			hay += "\x00" + res.Error.Message
		}
		esc, _ := json.Marshal(f.Text)
		if !strings.Contains(asciiLower(hay), asciiLower(f.Text)) && !strings.Contains(asciiLower(hay), asciiLower(string(esc[1:len(esc)-1]))) {
			return false
		}
	}
	if c := f.Cell; c != nil {
		if res.Status != engine.StatusValid {
			return false
		}
		var row struct{ Expected map[string]any }
		json.Unmarshal(res.Row, &row)
		pred := res.Prediction.(map[string]any)
		if row.Expected[c.Path[0]] != c.Expected || pred[c.Path[0]] != c.Predicted {
			return false
		}
	}
	return true
}

// asciiLower folds ASCII letters only, as SQLite's lower() does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// brute is the indices f selects of all, in its order.
func brute(f ResultFilter, all []engine.ExampleResult) []int {
	var sel []engine.ExampleResult
	for _, r := range all {
		if matches(f, r) {
			sel = append(sel, r)
		}
	}
	if f.ByScore {
		slices.SortStableFunc(sel, func(a, b engine.ExampleResult) int {
			return cmp.Or(cmp.Compare(a.Contribution, b.Contribution), cmp.Compare(a.Index, b.Index))
		})
	}
	out := []int{}
	for _, r := range sel {
		out = append(out, r.Index)
	}
	return out
}

var exploreFilters = []struct {
	name string
	f    ResultFilter
}{
	{"all", ResultFilter{}},
	{"valid", ResultFilter{Status: engine.StatusValid}},
	{"execution errors", ResultFilter{Status: engine.StatusExecutionError}},
	{"imperfect", ResultFilter{Imperfect: true}},
	{"valid imperfect", ResultFilter{Status: engine.StatusValid, Imperfect: true}},
	{"label wrong", ResultFilter{Wrong: []string{"label"}}},
	{"note wrong", ResultFilter{Wrong: []string{"note"}}},
	{"code timeout", ResultFilter{Code: string(diag.Timeout)}},
	{"code none", ResultFilter{Code: "no_such_code"}},
	{"code and status", ResultFilter{Code: string(diag.InvalidValue), Status: engine.StatusInvalidOutput}},
	{"text in input, other case", ResultFilter{Text: "acme"}},
	{"text in prediction", ResultFilter{Text: "needle IN the"}},
	{"text in error message", ResultFilter{Text: "IS THE SERVER"}},
	{"text in expected", ResultFilter{Text: `"note":"n3"`}},
	{"text with a quote", ResultFilter{Text: `"ltd"`}},
	{"text missing", ResultFilter{Text: "no such words"}},
	{"text and wrong", ResultFilter{Text: "mail 1", Wrong: []string{"amount"}}},
	{"cell spam as ham", ResultFilter{Cell: &Cell{Path: []string{"label"}, Expected: "spam", Predicted: "ham"}}},
	{"cell eggs as eggs", ResultFilter{Cell: &Cell{Path: []string{"label"}, Expected: "eggs", Predicted: "eggs"}}},
	{"by score", ResultFilter{ByScore: true}},
	{"by score imperfect", ResultFilter{ByScore: true, Imperfect: true}},
	{"by score valid", ResultFilter{ByScore: true, Status: engine.StatusValid}},
	{"by score wrong note", ResultFilter{ByScore: true, Wrong: []string{"note"}}},
	{"by score code", ResultFilter{ByScore: true, Code: string(diag.ProviderError)}},
	{"by score text", ResultFilter{ByScore: true, Text: "needle"}},
}

// TestPageFilters: every filter, paged in small pages with a small scan budget, yields
// exactly what the filter in Go selects, in its order, never skipping or repeating; a
// budget that runs out says so and the next page goes on; Total is the count whenever
// it is given, and given for each filter of one indexed condition.
func TestPageFilters(t *testing.T) {
	s, _ := open(t)
	id, all := exploredRun(t, s, 700)
	defer func(b int) { scanBudget = b }(scanBudget)
	for _, budget := range []int{30_000, 9} {
		scanBudget = budget
		for _, c := range exploreFilters {
			t.Run(fmt.Sprintf("%s/budget %d", c.name, budget), func(t *testing.T) {
				want := brute(c.f, all)
				got := []int{}
				scanned := false
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
					if p.Total != nil && *p.Total != len(want) {
						t.Errorf("Total %d, want %d", *p.Total, len(want))
					}
					oneIndex := c.f.Text == "" && c.f.Cell == nil && !c.f.ByScore &&
						b2f(c.f.Status != "")+b2f(c.f.Imperfect)+b2f(c.f.Wrong != nil)+b2f(c.f.Code != "") <= 1
					if oneIndex && p.Total == nil || (c.f.Text != "" || c.f.Cell != nil) && p.Total != nil {
						t.Errorf("Total given %v", p.Total != nil)
					}
					if p.Scanned && p.Next == -1 {
						t.Errorf("scanned with next %d and %d results", p.Next, len(p.Results))
					}
					scanned = scanned || p.Scanned
					if p.Next == -1 {
						break
					}
					after = p.Next
				}
				if !slices.Equal(got, want) {
					t.Errorf("pages gave %d results %v\nwant %d %v", len(got), got, len(want), want)
				}
				if budget == 9 && c.f.Text == "no such words" && !scanned {
					t.Error("a search that finds nothing in 700 results never ran out of a budget of 9")
				}
			})
		}
	}
}

// TestPageShowsRow: a page has each result's input and expected output from its row, in
// the file's key order, clipped like the prediction; a result stored without a row has
// none.
func TestPageShowsRow(t *testing.T) {
	s, _ := open(t)
	run := create(t, s, "rows.yaml")
	long := strings.Repeat("é", MaxShown)
	w := s.ResultWriter(run.ID)
	for i, row := range []string{
		`{"expected":{"b":1,"a":"x"},"input":{"z":"files/a.png","y":2}}`,
		`{"input":{"text":"` + long + `"},"expected":{"a":"x"}}`,
		``,
	} {
		res := example(i)
		res.Row = json.RawMessage(row)
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	p, err := s.Page(run.ID, PageQuery{After: First})
	if err != nil || len(p.Results) != 3 {
		t.Fatalf("%d results, %v", len(p.Results), err)
	}
	if in, exp := string(p.Results[0].Input), string(p.Results[0].Expected); in != `{"z":"files/a.png","y":2}` || exp != `{"b":1,"a":"x"}` || p.Results[0].Clipped {
		t.Errorf("row 0: input %s, expected %s", in, exp)
	}
	if r := p.Results[1]; !r.Clipped || len(r.Input) > MaxShown+200 || !strings.Contains(string(r.Input), "clipped") || string(r.Expected) != `{"a":"x"}` {
		t.Errorf("row 1: clipped %v, input of %d bytes, expected %s", r.Clipped, len(r.Input), r.Expected)
	}
	if r := p.Results[2]; r.Input != nil || r.Expected != nil {
		t.Errorf("a result without a row shows input %s, expected %s", r.Input, r.Expected)
	}
}

// TestPageUnknownDimension: a wrong dimension or a cell path the run does not score is
// refused, not an empty page.
func TestPageUnknownDimension(t *testing.T) {
	s, _ := open(t)
	id, _ := exploredRun(t, s, 30)
	for _, f := range []ResultFilter{{Wrong: []string{"nope"}}, {Cell: &Cell{Path: []string{`a"b`}}}} {
		if _, err := s.Page(id, PageQuery{Filter: f, After: First}); err == nil || !strings.Contains(err.Error(), ErrUnknownDimension.Error()) {
			t.Errorf("%+v: %v, want %v", f, err, ErrUnknownDimension)
		}
	}
}
