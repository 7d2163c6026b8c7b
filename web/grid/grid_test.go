package grid

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

// TestRenderStates renders the grid in the states it passes through: nothing may panic.
func TestRenderStates(t *testing.T) {
	one := 1.0
	g := api.Grid{
		Systems: []api.GridSystem{{System: "a", Run: "01A"}, {System: "b", Run: "01B"}},
		Rows: []api.GridRow{{Index: 0, Input: json.RawMessage(`{"text":"hola"}`), Expected: json.RawMessage(`{"language":"es"}`), Cells: []api.GridCell{
			{Status: api.Valid, Prediction: json.RawMessage(`{"language":"es"}`), Score: &one, Fields: []api.FieldScore{{Path: []string{"language"}, Score: 1}}},
			{Status: api.ExecutionError, Error: &api.ResultError{Code: "adapter_error", Message: "boom"}},
		}}},
		Matched: 1, Next: -1,
	}
	uitest.Renders(t,
		&Page{},
		&Page{bench: "b.yaml"},
		&Page{bench: "b.yaml", page: uitest.Failed[api.Grid]("b.yaml\n", errors.New("offline"))},
		&Page{bench: "b.yaml", page: uitest.Loaded("b.yaml\n", api.Grid{Next: -1})},
		&Page{bench: "b.yaml", page: uitest.Loaded("b.yaml\n", g), filter: api.FilterDisagree},
		// the server's note on rows without their input, and a clipped prediction
		&Page{bench: "b.yaml", page: uitest.Loaded("b.yaml\n", api.Grid{Systems: g.Systems[:1], RowsNote: "the dataset changed since these runs", Next: -1,
			Rows: []api.GridRow{{Cells: []api.GridCell{{Status: api.Valid, Clipped: true, Prediction: json.RawMessage(`"{\"text\":\"aaa… [clipped: 90000 bytes of JSON in all; the first 4096 shown]"`)}}}}})},
		// a row with fewer cells than systems, from a server that left one out
		&Page{bench: "b.yaml", page: uitest.Loaded("b.yaml\n", api.Grid{Systems: g.Systems, Rows: []api.GridRow{{Cells: g.Rows[0].Cells[:1]}}})},
	)
}

// TestCellMarks: a valid answer is right only when every field is; others show their status.
func TestCellMarks(t *testing.T) {
	for _, c := range []struct {
		cell api.GridCell
		want string
	}{
		{api.GridCell{Status: api.Valid, Fields: []api.FieldScore{{Score: 1}, {Score: 1}}}, "cell valid right"},
		{api.GridCell{Status: api.Valid, Fields: []api.FieldScore{{Score: 1}, {Score: 0}}}, "cell valid wrong"},
		{api.GridCell{Status: api.InvalidOutput}, "cell invalid_output"},
	} {
		if got := cellClass(c.cell); got != c.want {
			t.Errorf("cellClass(%+v) = %q, want %q", c.cell, got, c.want)
		}
	}
}
