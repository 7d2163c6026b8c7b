package compare

import (
	"encoding/json"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

func TestCanCompare(t *testing.T) {
	a := &api.Run{ID: "a", IRHash: "h", Total: 10}
	if !canCompare(nil, nil) || !canCompare(a, &api.Run{ID: "b", IRHash: "h", Total: 10}) ||
		canCompare(a, a) || canCompare(a, nil) ||
		canCompare(a, &api.Run{ID: "b", IRHash: "other", Total: 10}) || canCompare(a, &api.Run{ID: "b", IRHash: "h", Total: 5}) {
		t.Error("canCompare")
	}
}

// TestDecodeComparison: a comparison as the server sends it.
func TestDecodeComparison(t *testing.T) {
	var c api.Comparison
	json.Unmarshal([]byte(`{"a":"A","b":"B","examples":4,"score_a":0.5,"score_b":0.75,"delta":0.25,
		"delta_interval":{"level":0.95,"low":0.1,"high":0.4,"method":"paired-bootstrap-percentile-2000"},
		"dimensions":[{"path":["x"],"accuracy_a":0.5,"accuracy_b":null,"delta":null}],"improved":1,"regressed":0,
		"flips":[{"index":2,"status_a":"valid","status_b":"valid","contribution_a":0,"contribution_b":1}]}`), &c)
	if c.Interval.Method != "paired-bootstrap-percentile-2000" || c.Flips[0].QB != 1 || c.Dimensions[0].Delta != nil {
		t.Errorf("comparison %+v", c)
	}
}

// TestRenderWithoutData renders the page in the states it passes through, with fields
// missing: nothing may panic, before or after the server answers.
func TestRenderWithoutData(t *testing.T) {
	done := api.Run{ID: "01B", Status: api.Completed, Report: json.RawMessage(`{"benchmark_score":0.5}`)}
	bare := api.Run{ID: "01A", Status: api.Running}
	refused := uitest.Failed[api.Comparison]("01A 01B", &client.Error{Code: "different_lengths"})
	pages := []*Page{
		{},
		{a: "01A"},
		{a: "01A", b: "01B", cands: uitest.Loaded("", []api.Run{bare, done})},
		{a: "01A", b: "01B", cmp: uitest.Loaded("01A 01B", api.Comparison{Dimensions: []api.CompareDimension{{}}, Flips: make([]api.Flip, 150)})},
		{a: "01A", b: "01B", cmp: refused},
	}
	uitest.Renders(t, pages...)
}
