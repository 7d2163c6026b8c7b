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
	if got := exportName("01ABC", "jsonl"); got != "benchy-01ABC.jsonl" {
		t.Errorf("exportName %q", got)
	}
}

// TestRenderWithoutData renders the page in the states it passes through, with fields
// missing: nothing may panic, before or after the server answers.
func TestRenderWithoutData(t *testing.T) {
	done := api.Run{ID: "01B", Status: api.Completed, Report: json.RawMessage(`{"benchmark_score":0.5}`)}
	bare := api.Run{ID: "01A", Status: api.Running}
	pages := []*Page{
		{},
		{id: "01A"},
		{id: "01A", run: uitest.Loaded("01A", bare), page: uitest.Loaded("01A", api.ResultPage{Results: []api.Result{{}, {Status: api.Valid, FieldScores: []api.FieldScore{{}}, Error: &api.ResultError{}}}})},
		{id: "01B", run: uitest.Loaded("01B", done), page: uitest.Loaded("01B", api.ResultPage{Next: -1}), status: api.Valid},
		{id: "01A", run: ui.Load[api.Run]{Err: errors.New("offline")}},
	}
	uitest.Renders(t, pages...)
}
