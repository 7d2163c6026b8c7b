package store

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// completed stores a completed run of n examples and returns it with its report.
func completed(t *testing.T, s *Store, n int) (Run, *engine.Report) {
	t.Helper()
	r := create(t, s, "b.yaml")
	s.MarkRunning(r.ID, n)
	write(t, s, r.ID, 0, n)
	rep := &engine.Report{Version: engine.ResultVersion, BenchmarkScore: 0.75, IRHash: r.IRHash, Binding: "local",
		AISystem: map[string]any{"type": "external", "id": "x<y>"}, Concurrency: 4,
		StartedAt: "2026-03-01T12:00:00Z", FinishedAt: "2026-03-01T12:01:00Z",
		Confidence: engine.Interval{Level: 0.95, Low: 0.7, High: 0.8, Method: "bootstrap"},
		Dimensions: []engine.DimensionAccuracy{{Path: []string{"total"}, Weight: 1}}}
	rep.Summary = summaryOf(n)
	if err := s.Finish(r.ID, rep); err != nil {
		t.Fatal(err)
	}
	return r, rep
}

func TestExportJSON(t *testing.T) {
	s, _ := open(t)
	const n = 300
	r, rep := completed(t, s, n)
	var got bytes.Buffer
	if err := exportAll(s, r.ID, JSON, &got); err != nil {
		t.Fatal(err)
	}
	// Byte for byte the engine's own result document for the same report and results.
	var jsonl bytes.Buffer
	for i := range n {
		jsonl.WriteString(withRow(encoded(t, example(i))) + "\n")
	}
	var want bytes.Buffer
	if err := engine.WriteDocument(&want, rep, &jsonl); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("the JSON export differs from engine.WriteDocument:\n got %.300s\nwant %.300s", got.String(), want.String())
	}
	// And it parses to the report's fields plus the results.
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(got.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var results []engine.ExampleResult
	json.Unmarshal(doc["results"], &results)
	delete(doc, "results")
	head, _ := json.Marshal(doc)
	var gotRep engine.Report
	json.Unmarshal(head, &gotRep)
	wantRep := *rep
	wantRep.AISystem = map[string]any{"type": "external", "id": "x<y>"}
	if !reflect.DeepEqual(gotRep, wantRep) || len(results) != n || results[n-1].Index != n-1 {
		t.Errorf("document: %+v with %d results", gotRep, len(results))
	}
}

func TestExportJSONL(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	s.MarkRunning(r.ID, 100)
	write(t, s, r.ID, 0, 60) // a run in progress exports what it has
	var out bytes.Buffer
	if err := exportAll(s, r.ID, JSONL, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	i := 0
	for ; sc.Scan(); i++ {
		if got, want := sc.Text(), withRow(encoded(t, example(i))); got != want {
			t.Fatalf("line %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
	if i != 60 {
		t.Errorf("%d lines, want 60", i)
	}
	if err := exportAll(s, r.ID, JSON, &out); !errors.Is(err, ErrNoReport) {
		t.Errorf("JSON export of a running run: %v, want ErrNoReport", err)
	}
}

func TestExportCSV(t *testing.T) {
	s, _ := open(t)
	r, _ := completed(t, s, 40)
	var out bytes.Buffer
	if err := exportAll(s, r.ID, CSV, &out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 41 || strings.Join(recs[0], ",") != "index,status,score,contribution,error_code,error_path,prediction,input,expected" {
		t.Fatalf("%d records, header %v", len(recs), recs[0])
	}
	for _, c := range []struct {
		row  int
		want []string
	}{
		{1, []string{"0", "valid", "0.8", "0.8", "", "", `{"date":"2026-01-01","invoice_number":"F-000000","subtotal":100.5,"supplier":"Acme S.L.","total":121.21}`, "", ""}},
		{6, []string{"5", "invalid_output", "", "0", "invalid_value", `["total"]`, `{"invoice_number":"F-000005","total":"ciento veinte <eur> & más"}`, "", ""}},
		{8, []string{"7", "execution_error", "", "0", "timeout", "", "null", "", ""}},
	} {
		if !reflect.DeepEqual(recs[c.row], c.want) {
			t.Errorf("row %d:\n got %q\nwant %q", c.row, recs[c.row], c.want)
		}
	}
}

func TestExportErrors(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	var out bytes.Buffer
	if err := exportAll(s, r.ID, "xml", &out); err == nil || !strings.Contains(err.Error(), "xml") {
		t.Errorf("format xml: %v", err)
	}
	if err := exportAll(s, "nope", JSONL, &out); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown run: %v", err)
	}
	// A report that does not count the stored results: the document is left unfinished.
	r2, _ := completed(t, s, 5)
	s.w.Exec(`DELETE FROM results WHERE run_id = ? AND idx = 2`, r2.ID)
	out.Reset()
	if err := exportAll(s, r2.ID, JSON, &out); err == nil || json.Valid(out.Bytes()) {
		t.Errorf("a short run exported as a whole document: %v", err)
	}
}

// exportAll is every result of run id as format, unfiltered (ExportRows with no query).
func exportAll(s *Store, id string, format Format, w io.Writer) error {
	_, err := s.ExportRows(id, format, ExportQuery{}, w)
	return err
}

// withRow is a stored result's A.14 line as an export writes it: with the example's input
// and expected output beside it, null for these results, stored without their rows.
func withRow(line string) string {
	return strings.TrimSuffix(line, "}") + `,"input":null,"expected":null}`
}
