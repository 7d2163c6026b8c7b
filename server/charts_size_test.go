package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// enumYAML is a classify benchmark whose label is an enum of members m0 ... m<n-1>.
func enumYAML(n int) string {
	members := make([]string, n)
	for i := range members {
		members[i] = fmt.Sprintf("m%d", i)
	}
	return `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input: {text: string}
  output:
    label: {enum: [` + strings.Join(members, ", ") + `]}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: ./data.jsonl}
ai-system: {type: external, id: system-00}
`
}

// storeEnumRun stores a completed run of enumYAML(members) whose n examples are all valid
// and wrong, each a confusion cell of its own while n <= members*(members-1): expected m[i
// mod members], predicted the one 1 + i/members after it.
func storeEnumRun(t *testing.T, dir string, members, n int) string {
	t.Helper()
	return storeRun(t, dir, enumYAML(members), n, func(i int) (map[string]any, map[string]any) {
		return map[string]any{"text": fmt.Sprint(i)}, map[string]any{"label": fmt.Sprintf("m%d", i%members)}
	}, func(i int) engine.ExampleResult {
		zero := 0.0
		pred := (i%members + 1 + i/members) % members
		return engine.ExampleResult{Status: engine.StatusValid, Prediction: map[string]any{"label": fmt.Sprintf("m%d", pred)},
			FieldScores: []engine.FieldScore{{Path: []string{"label"}, Score: 0, Weight: 1}}, Score: &zero}
	})
}

// TestChartsConfusionIsSparse: the charts of a run over an enum of 1,000 members (as
// ImageNet's labels) with 2,000 distinct confusion cells answer only cells that occur,
// folded to the api.MaxConfusionLabels members that occur most and one "other" row and
// column: at most 21×21 cells, in a few KB, where a dense 1,000×1,000 matrix was 4 MB
// (and an 8,000-member enum 128 MB, 13 s, 953 MB). The counts still add up to the valid
// examples.
func TestChartsConfusionIsSparse(t *testing.T) {
	dir := t.TempDir()
	id := storeEnumRun(t, dir, 1000, 2000)
	_, srv := serve(t, Config{Workspace: dir})
	r := call(t, srv, "GET", api.ChartsPath(id), "")
	if r.status != http.StatusOK {
		t.Fatalf("GET charts: %d %s", r.status, r.body)
	}
	const most = 64 << 10
	if len(r.body) > most {
		t.Fatalf("the charts answer of a 1,000-member enum is %d bytes, want at most %d", len(r.body), most)
	}
	var c struct { // the wire's names, as a client reads them
		Confusion []struct {
			Labels  []string `json:"labels"`
			Members int      `json:"members"`
			Cells   []struct {
				Expected  int `json:"expected"`
				Predicted int `json:"predicted"`
				Count     int `json:"count"`
			} `json:"cells"`
		} `json:"confusion"`
	}
	if err := json.Unmarshal([]byte(r.body), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Confusion) != 1 {
		t.Fatalf("%d matrices, want 1", len(c.Confusion))
	}
	m := c.Confusion[0]
	side := api.MaxConfusionLabels + 1
	if len(m.Labels) != api.MaxConfusionLabels || m.Members != 1000 || len(m.Cells) > side*side {
		t.Fatalf("%d labels of %d members, %d cells; want %d labels of 1000 and at most %d cells", len(m.Labels), m.Members, len(m.Cells), api.MaxConfusionLabels, side*side)
	}
	total := 0
	for k, cell := range m.Cells {
		if cell.Count <= 0 || cell.Expected > len(m.Labels) || cell.Predicted > len(m.Labels) {
			t.Errorf("cell %+v: a cell that occurs, of a label or other", cell)
		}
		if k > 0 && [2]int{m.Cells[k-1].Expected, m.Cells[k-1].Predicted} == [2]int{cell.Expected, cell.Predicted} ||
			k > 0 && (m.Cells[k-1].Expected > cell.Expected || m.Cells[k-1].Expected == cell.Expected && m.Cells[k-1].Predicted > cell.Predicted) {
			t.Errorf("cells %+v, %+v: not sorted by expected then predicted", m.Cells[k-1], cell)
		}
		total += cell.Count
	}
	if total != 2000 {
		t.Errorf("the cells count %d examples, want the 2000 valid ones", total)
	}
	// The same answer again (kept): byte for byte.
	if again := call(t, srv, "GET", api.ChartsPath(id), ""); again.body != r.body {
		t.Error("a second answer of a completed run's charts differs from the first")
	}
}

// TestChartsCacheKeepsLittle: the charts the server keeps of completed runs stay small:
// after the charts of four runs over a 1,000-member enum were asked, the heap they hold
// grew by less than 4 MB (a kept dense matrix alone was 8 MB a run).
func TestChartsCacheKeepsLittle(t *testing.T) {
	dir := t.TempDir()
	var ids []string
	for range 5 {
		ids = append(ids, storeEnumRun(t, dir, 1000, 1000))
	}
	_, srv := serve(t, Config{Workspace: dir})
	get := func(id string) {
		if r := call(t, srv, "GET", api.ChartsPath(id), ""); r.status != http.StatusOK {
			t.Fatalf("GET charts: %d %s", r.status, r.body)
		}
	}
	get(ids[0]) // the store's connections and the handler's first allocations
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for _, id := range ids[1:] {
		get(id)
	}
	grew := int64(heap()) - int64(before)
	t.Logf("the heap grew by %d bytes", grew)
	if grew > 4<<20 {
		t.Errorf("the heap grew by %d bytes keeping the charts of 4 runs, want under %d", grew, 4<<20)
	}
}

// TestChartsCacheBoundedByBytes: the cache never holds more than maxChartsBytes of charts,
// and a charts answer over maxKeptChart (a run of very many dimensions) is not kept at all.
func TestChartsCacheBoundedByBytes(t *testing.T) {
	s := &Server{}
	s.keepCharts("huge", make([]byte, maxKeptChart+1))
	if _, ok := s.chartsC.m["huge"]; ok {
		t.Error("a charts answer over maxKeptChart is kept")
	}
	body := make([]byte, maxKeptChart)
	for i := range 3 * maxChartsBytes / maxKeptChart {
		s.keepCharts(fmt.Sprint(i), body)
		held := 0
		for _, b := range s.chartsC.m {
			held += len(b)
		}
		if held != s.chartsC.bytes || held > maxChartsBytes || s.chartsC.m[fmt.Sprint(i)] == nil {
			t.Fatalf("after %d answers: %d bytes held (counted %d), want at most %d with the last kept", i+1, held, s.chartsC.bytes, maxChartsBytes)
		}
	}
}
