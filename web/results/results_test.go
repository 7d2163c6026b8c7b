package results

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

func TestPaging(t *testing.T) {
	if pageCount(0, 50) != 1 || pageCount(50, 50) != 1 || pageCount(51, 50) != 2 || pageCount(100000, 50) != 2000 {
		t.Error("pageCount")
	}
	s := api.Summary{Examples: 10, Valid: 7, InvalidOutputs: 1, ExecutionErrors: 2}
	if countFor(s, "") != 10 || countFor(s, api.Valid) != 7 || countFor(s, api.InvalidOutput) != 1 || countFor(s, api.ExecutionError) != 2 {
		t.Error("countFor")
	}
	if got := client.ExportPath("01ABC", "csv"); got != "/api/runs/01ABC/results?format=csv" {
		t.Errorf("ExportPath %q", got)
	}
	if got := exportName("01ABC", "jsonl", api.Filter{}); got != "benchy-01ABC.jsonl" {
		t.Errorf("exportName %q", got)
	}
	if got := exportName("01ABC", "csv", api.Filter{Imperfect: true}); got != "benchy-01ABC-imperfect.csv" {
		t.Errorf("exportName of a filtered export %q, want it to say its filter as the server does", got)
	}
}

// TestRenderWithoutData renders the page in the states it passes through, with fields
// missing: nothing may panic, before or after the server answers.
func TestRenderWithoutData(t *testing.T) {
	done := api.Run{ID: "01B", Status: api.Completed, Report: json.RawMessage(`{"benchmark_score":0.5}`)}
	bare := api.Run{ID: "01A", Status: api.Running}
	failed := api.Run{ID: "01C", Status: api.Completed, Health: &api.Health{Failed: true, Code: "provider_error", Message: "cannot reach", Count: 4, Examples: 4}}
	one := 1.0
	charts := api.Charts{Summary: api.Summary{Examples: 4, ExecutionErrors: 4}, Histogram: make([]int, 11),
		Dimensions: []api.Dimension{{Path: []string{"label"}, Weight: 1}, {Path: []string{"x"}, Accuracy: &one}},
		Codes:      []api.CodeCount{{Code: "provider_error", Count: 4}},
		Confusion: []api.Confusion{{Path: []string{"label"}, Labels: []string{"a", "b"}, Members: 2, Cells: []api.ConfusionCell{{Expected: 0, Predicted: 0, Count: 1}, {Expected: 1, Predicted: 0, Count: 2}}},
			{Path: []string{"big"}, Labels: []string{"a"}, Members: 4000, Cells: []api.ConfusionCell{{Expected: 0, Predicted: 1, Count: 3}, {Expected: 1, Predicted: 1, Count: 5}, {Expected: 9, Predicted: 9, Count: 1}}}, {}}}
	detail := api.ExampleDetail{Result: api.Result{Index: 3, Status: api.ExecutionError, Error: &api.ResultError{Code: "provider_error"},
		Input: json.RawMessage(`{"image":"a.png","text":"x\ny","n":{"m":1}}`), Expected: json.RawMessage(`{"label":"a"}`),
		Prediction: json.RawMessage(`[1`), Usage: &api.ExampleUsage{InputTokens: 3}}, Request: "POST", Prev: -1, Next: 5,
		ArtifactNotes: map[string]string{"a.png": "outside the workspace"}}
	pages := []*Page{
		{},
		{id: "01A"},
		{id: "01A", run: uitest.Loaded("01A", bare), page: uitest.Loaded("01A", api.ResultPage{Results: []api.Result{{}, {Status: api.Valid, FieldScores: []api.FieldScore{{}}, Error: &api.ResultError{}}}})},
		{id: "01B", run: uitest.Loaded("01B", done), page: uitest.Loaded("01B", api.ResultPage{Next: -1}), filter: api.Filter{Status: api.Valid}, example: -1},
		{id: "01A", run: ui.Load[api.Run]{Err: errors.New("offline")}},
		{id: "01C", run: uitest.Loaded("01C", failed), example: 3, detail: uitest.Loaded("01C/3", detail),
			charts: uitest.Loaded("01C", charts)},
		{id: "01C", run: uitest.Loaded("01C", failed), example: -1, charts: uitest.Loaded("01C", charts), page: uitest.Loaded("01C", api.ResultPage{Next: 4, Scanned: true})},
		{id: "01C", example: 2, detail: uitest.Failed[api.ExampleDetail]("01C/2", errors.New("gone"))},
	}
	uitest.Renders(t, pages...)
}
