package store

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// filteredRun is a completed run of three results, their dataset rows written with
// spaces: 0 valid and right, 1 valid and wrong, 2 an invalid output whose raw answer is a
// sentence, not the program's fields.
func filteredRun(t *testing.T, s *Store) string {
	t.Helper()
	r := create(t, s, "b.yaml")
	s.MarkRunning(r.ID, 3)
	w := s.ResultWriter(r.ID)
	one, zero := 1.0, 0.0
	row := json.RawMessage(`{"input": {"text": "a b"}, "expected": {"label": "x",  "amount": 2}}`)
	for _, res := range []engine.ExampleResult{
		{Index: 0, Status: engine.StatusValid, Prediction: map[string]any{"label": "x", "amount": json.Number("2")}, Score: &one, Contribution: 1, Row: row},
		{Index: 1, Status: engine.StatusValid, Prediction: map[string]any{"label": "y", "amount": json.Number("2")}, Score: &zero, Contribution: 0, Row: row,
			FieldScores: []engine.FieldScore{{Path: []string{"label"}, Score: 0, Weight: 1}}},
		{Index: 2, Status: engine.StatusInvalidOutput, Prediction: "I think it is x", Row: row,
			Error: &engine.ResultError{Code: "invalid_value", Message: "not an object"}},
	} {
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(r.ID, &engine.Report{Version: engine.ResultVersion, Summary: engine.Summary{Examples: 3, Valid: 2, InvalidOutputs: 1}}); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// TestExportFilteredSaysSo: a filtered JSON export says it is filtered: "filter" (the
// query's keys and values) and "selected" (how many results it holds) beside the whole
// run's summary; the whole run's export has neither, as A.14's document.
func TestExportFilteredSaysSo(t *testing.T) {
	s, _ := open(t)
	id := filteredRun(t, s)
	q := ExportQuery{Filter: ResultFilter{Imperfect: true}, Query: url.Values{"imperfect": {"1"}}}
	var out bytes.Buffer
	if _, err := s.ExportRows(id, JSON, q, &out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary  struct{ Examples int }
		Filter   map[string]string
		Selected *int
		Results  []struct{ Index int }
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if doc.Summary.Examples != 3 || doc.Filter["imperfect"] != "1" || len(doc.Filter) != 1 || doc.Selected == nil || *doc.Selected != 2 || len(doc.Results) != 2 {
		t.Errorf("filtered export: summary %d, filter %v, selected %v, %d results\n%s", doc.Summary.Examples, doc.Filter, doc.Selected, len(doc.Results), out.String())
	}
	out.Reset()
	if _, err := s.ExportRows(id, JSON, ExportQuery{}, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"filter"`) || strings.Contains(out.String(), `"selected"`) {
		t.Errorf("the whole run's export says it is filtered: %s", out.String())
	}
}

// TestExportCompactRows: the dataset's input and expected output, written with spaces,
// are compacted in JSONL and JSON, as the rest of each line is.
func TestExportCompactRows(t *testing.T) {
	s, _ := open(t)
	id := filteredRun(t, s)
	for _, f := range []Format{JSONL, JSON} {
		var out bytes.Buffer
		if _, err := s.ExportRows(id, f, ExportQuery{}, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), `"input":{"text":"a b"},"expected":{"label":"x","amount":2}`) || strings.Contains(out.String(), `": `) {
			t.Errorf("%s: not compact: %s", f, out.String())
		}
	}
}

// TestExportCSVPredictionOnce: with the program's leaves, a valid answer is in its
// prediction.y columns only, not again as JSON in prediction; an invalid output's raw
// answer, which has none of the program's fields, stays in prediction. Without the leaves
// prediction has every answer.
func TestExportCSVPredictionOnce(t *testing.T) {
	s, _ := open(t)
	id := filteredRun(t, s)
	read := func(q ExportQuery) (map[string]int, [][]string) {
		var out bytes.Buffer
		if _, err := s.ExportRows(id, CSV, q, &out); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil || len(recs) != 4 {
			t.Fatalf("%v: %q", err, recs)
		}
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		return col, recs
	}
	col, recs := read(ExportQuery{Input: [][]string{{"text"}}, Output: [][]string{{"label"}, {"amount"}}})
	p, l := col["prediction"], col["prediction.label"]
	if recs[1][p] != "" || recs[2][p] != "" || recs[1][l] != "x" || recs[2][l] != "y" {
		t.Errorf("valid rows: prediction %q %q, prediction.label %q %q", recs[1][p], recs[2][p], recs[1][l], recs[2][l])
	}
	if recs[3][p] != `"I think it is x"` || recs[3][l] != "" {
		t.Errorf("the invalid output's raw answer: prediction %q, prediction.label %q", recs[3][p], recs[3][l])
	}
	col, recs = read(ExportQuery{})
	if p := col["prediction"]; !strings.Contains(recs[1][p], `"label":"x"`) || recs[3][p] != `"I think it is x"` {
		t.Errorf("without leaves: prediction %q, %q", recs[1][p], recs[3][p])
	}
}
