package store

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestExportRowsFiltered: a filtered export in each format has exactly the results the
// filter selects, in its order, each with its row's input and expected output beside the
// prediction; the CSV has input.x, expected.y and prediction.y columns in the order given.
func TestExportRowsFiltered(t *testing.T) {
	s, _ := open(t)
	id, all := exploredRun(t, s, 200)
	rep := &engine.Report{Version: engine.ResultVersion, Summary: engine.Summary{Examples: 200}}
	s.MarkRunning(id, 200)
	if err := s.Finish(id, rep); err != nil {
		t.Fatal(err)
	}
	q := ExportQuery{Filter: ResultFilter{Wrong: []string{"label"}, ByScore: true},
		Input: [][]string{{"text"}, {"doc"}}, Output: [][]string{{"label"}, {"amount"}, {"note"}}}
	want := brute(q.Filter, all)
	for _, f := range []Format{JSONL, JSON, CSV} {
		var out bytes.Buffer
		note, err := s.ExportRows(id, f, q, &out)
		if err != nil || note != "" {
			t.Fatalf("%s: %v, note %q", f, err, note)
		}
		type line struct {
			Index      int
			Prediction map[string]any
			Input      map[string]any
			Expected   map[string]any
		}
		var got []line
		switch f {
		case JSONL:
			for l := range bytes.Lines(out.Bytes()) {
				var x line
				if err := json.Unmarshal(l, &x); err != nil {
					t.Fatal(err)
				}
				got = append(got, x)
			}
		case JSON:
			var doc struct{ Results []line }
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("%v: %.300s", err, out.String())
			}
			got = doc.Results
		case CSV:
			recs, err := csv.NewReader(&out).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			head := strings.Join(recs[0], ",")
			if head != "index,status,score,contribution,error_code,error_path,prediction,input.text,input.doc,expected.label,expected.amount,expected.note,prediction.label,prediction.amount,prediction.note" {
				t.Errorf("CSV header %s", head)
			}
			for k, rec := range recs[1:] {
				i := want[min(k, len(want)-1)]
				var row struct{ Input, Expected map[string]any }
				json.Unmarshal(all[i].Row, &row)
				pred := all[i].Prediction.(map[string]any)
				wantCells := []string{row.Input["text"].(string), row.Input["doc"].(string), row.Expected["label"].(string),
					string(json.Number(strings.TrimSpace(string(mustJSON(row.Expected["amount"]))))), row.Expected["note"].(string),
					pred["label"].(string), string(pred["amount"].(json.Number)), pred["note"].(string)}
				if strings.Join(rec[7:], "|") != strings.Join(wantCells, "|") || rec[0] != strconv.Itoa(i) {
					t.Errorf("CSV row %d: %q, want index %d %q", k, rec, i, wantCells)
				}
			}
			if len(recs)-1 != len(want) {
				t.Errorf("CSV: %d rows, want %d", len(recs)-1, len(want))
			}
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d results, want %d", f, len(got), len(want))
		}
		for k, x := range got {
			if x.Index != want[k] || x.Input["text"] == nil || x.Expected["label"] == nil || x.Prediction["label"] == nil {
				t.Errorf("%s: result %d: %+v, want index %d with input and expected", f, k, x, want[k])
			}
		}
	}
}

// TestExportRowsOldRun: results stored without rows export with empty input and
// expected output, and the export says so.
func TestExportRowsOldRun(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "old.yaml")
	write(t, s, r.ID, 0, 5)
	var out bytes.Buffer
	note, err := s.ExportRows(r.ID, JSONL, ExportQuery{}, &out)
	if err != nil || note != NoRowsNote {
		t.Fatalf("note %q, %v", note, err)
	}
	if !strings.Contains(out.String(), `"input":null,"expected":null}`) {
		t.Errorf("export %.200s", out.String())
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }
