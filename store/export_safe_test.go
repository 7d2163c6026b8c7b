package store

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestSafeCell: a cell a spreadsheet would run as a formula gets a ' in front; a plain
// number, signed or not, and any other text stay as they are.
func TestSafeCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-1+1", "'-1+1"},
		{"@SUM(1+1)", "'@SUM(1+1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"-2.5", "-2.5"},
		{"+3", "+3"},
		{"-1e3", "-1e3"},
		{"-Inf", "'-Inf"},
		{"- item", "'- item"},
		{"12", "12"},
		{"a=b", "a=b"},
		{"", ""},
	} {
		if got := safeCell(c.in); got != c.want {
			t.Errorf("safeCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestExportCSVNeutralised: a model's output, an input or an expected value that starts
// like a formula is written with a ' in front in both CSV exports; a negative number stays
// a number.
func TestExportCSVNeutralised(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	s.MarkRunning(r.ID, 2)
	w := s.ResultWriter(r.ID)
	one := 1.0
	for i, pred := range []map[string]any{
		{"label": `=HYPERLINK("http://evil","click")`, "amount": json.Number("-2.5")},
		{"label": "@SUM(1+1)", "amount": json.Number("3")},
	} {
		res := engine.ExampleResult{Index: i, Status: engine.StatusValid, Prediction: pred, Score: &one, Contribution: 1,
			Row: json.RawMessage(`{"input": {"text": "+cmd|' /C calc'!A0"}, "expected": {"label": "\tx", "amount": -2.5}}`)}
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	q := ExportQuery{Input: [][]string{{"text"}}, Output: [][]string{{"label"}, {"amount"}}}
	if _, err := s.ExportRows(r.ID, CSV, q, &out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("%v: %q", err, recs)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, c := range []struct {
		row  int
		name string
		want string
	}{
		{1, "input.text", "'+cmd|' /C calc'!A0"},
		{1, "expected.label", "'\tx"},
		{1, "expected.amount", "-2.5"},
		{1, "prediction.label", `'=HYPERLINK("http://evil","click")`},
		{1, "prediction.amount", "-2.5"},
		{2, "prediction.label", "'@SUM(1+1)"},
	} {
		if got := recs[c.row][col[c.name]]; got != c.want {
			t.Errorf("row %d %s = %q, want %q", c.row, c.name, got, c.want)
		}
	}
}
