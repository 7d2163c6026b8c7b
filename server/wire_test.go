package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// TestWireTypes: every endpoint's answer from a real server decodes into its api type
// with unknown fields refused (a field the types lack fails), and the decoded value
// encodes back to the very bytes the server sent (a field the server writes differently,
// in another order or with another omitempty, fails).
func TestWireTypes(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	yaml := call(t, srv, "GET", "/api/benchmarks/benchmark.yaml", "")

	wire(t, srv, "POST", "/api/runs", `{"benchmark": "broken.yaml"}`, http.StatusBadRequest, &api.InvalidBenchmarkError{})
	var started api.Started
	wire(t, srv, "POST", "/api/runs", `{"benchmark": "benchmark.yaml", "concurrency": 2}`, http.StatusAccepted, &started)
	a := started.ID
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "benchmark.yaml", "limit": 3}`)
	waitStatus(t, srv, b, store.Completed)
	c := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, c, store.Completed)

	wire(t, srv, "GET", api.BenchmarksPath, "", http.StatusOK, &[]api.Benchmark{})
	var file api.BenchmarkFile
	wire(t, srv, "GET", api.BenchmarkPath("benchmark.yaml"), "", http.StatusOK, &file)
	if sys := file.AISystem(); sys == nil || sys.BindingName() != "invoice-extractor-v7" {
		t.Errorf("ai_system of the IR: %+v", sys)
	}
	wire(t, srv, "GET", api.BenchmarkPath("broken.yaml"), "", http.StatusOK, &api.BenchmarkFile{})
	body, _ := json.Marshal(map[string]string{"yaml": string(file.YAML)})
	wire(t, srv, "PUT", api.BenchmarkPath("benchmark.yaml"), string(body), http.StatusOK, &api.BenchmarkFile{}, "If-Match", file.ETag)
	wire(t, srv, "POST", api.CompilePath, string(body), http.StatusOK, &api.Compiled{})
	wire(t, srv, "POST", api.CompilePath, `{"yaml": "version: 1.0\n"}`, http.StatusOK, &api.Compiled{})
	wire(t, srv, "GET", api.BindingsPath, "", http.StatusOK, &api.Bindings{})
	wire(t, srv, "GET", api.RunsQueryPath(map[string][]string{"benchmark": {"benchmark.yaml"}}), "", http.StatusOK, &api.Runs{})
	var run api.Run
	wire(t, srv, "GET", api.RunPath(a), "", http.StatusOK, &run)
	report := strict(t, "report", string(run.Report), &api.Report{})
	if report.BenchmarkScore == nil || run.DecodeReport() == nil {
		t.Errorf("report %s", run.Report)
	}
	var page api.ResultPage
	wire(t, srv, "GET", api.ResultsPath(a, map[string][]string{"limit": {"4"}}), "", http.StatusOK, &page)
	if len(page.Results) != 4 || page.Results[0].Input == nil {
		t.Errorf("page %+v", page)
	}
	wire(t, srv, "GET", api.ResultsPath(a, map[string][]string{"status": {api.InvalidOutput}}), "", http.StatusOK, &api.ResultPage{})
	wire(t, srv, "GET", api.ComparePath(a, c), "", http.StatusOK, &api.Comparison{})
	wire(t, srv, "GET", api.ComparePath(a, b), "", http.StatusConflict, &api.Error{})
	wire(t, srv, "GET", api.RunPath("nope"), "", http.StatusNotFound, &api.Error{})
	wire(t, srv, "POST", api.CancelPath(a), "{}", http.StatusConflict, &api.Error{})
	wire(t, srv, "POST", api.ResumePath(a), "{}", http.StatusConflict, &api.Error{})
	wire(t, srv, "PUT", api.FilePath("data/extra.jsonl"), `{"base64": "e30K"}`, http.StatusOK, &api.Saved{})
	if yaml.status != http.StatusOK {
		t.Fatalf("benchmark: %d", yaml.status)
	}

	// The events of a live run: progress and example events, then done.
	slowDir := runWorkspace(t, slow{gate: true, from: 2})
	_, slowSrv := serve(t, Config{Workspace: slowDir})
	id := startRun(t, slowSrv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`)
	waitRun(t, slowSrv, id, "started", func(v api.Run) bool { return v.Done >= 2 })
	wire(t, slowSrv, "GET", api.RunPath(id), "", http.StatusOK, &api.Run{})
	next, closeEvents := events(t, slowSrv, id)
	defer closeEvents()
	openGate(t, slowDir)
	seen := map[string]int{}
	for {
		e, ok := next()
		if !ok {
			t.Fatal("the stream ended before done")
		}
		seen[e.name]++
		switch e.name {
		case "progress":
			strict(t, e.name, e.data, &api.Progress{})
		case "example":
			strict(t, e.name, e.data, &api.Example{})
		case "skipped":
			strict(t, e.name, e.data, &api.Skipped{})
		case "done":
			strict(t, e.name, e.data, &api.Done{})
		default:
			t.Errorf("event %q: %s", e.name, e.data)
		}
		if e.name == "done" {
			break
		}
	}
	if seen["progress"] == 0 || seen["example"]+seen["skipped"] == 0 {
		t.Errorf("events seen: %v", seen)
	}
}

// wire calls the endpoint, wants the status, and checks the answer against v's type.
func wire[T any](t *testing.T, srv *httptest.Server, method, path, body string, status int, v *T, header ...string) *T {
	t.Helper()
	r := call(t, srv, method, path, body, header...)
	if r.status != status {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.status, r.body, status)
	}
	return strict(t, method+" "+path, strings.TrimSuffix(r.body, "\n"), v)
}

// strict decodes data into v refusing unknown fields, and wants v to encode back to data.
func strict[T any](t *testing.T, what, data string, v *T) *T {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, data)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSuffix(buf.String(), "\n"); got != data {
		t.Errorf("%s: the api type encodes\n%s\nthe server sent\n%s", what, got, data)
	}
	return v
}

// TestWireComparison: a comparison with flips, null and non-null accuracies and
// predictions encodes as compare.Comparison with the two ids did before it became an
// api.Comparison (the live comparison of TestWireTypes has no flips).
func TestWireComparison(t *testing.T) {
	acc := 0.5
	for _, c := range []compare.Comparison{
		{},
		{Examples: 3, ScoreA: 0.25, ScoreB: 1.0 / 3, Delta: 0.08, Interval: engine.Interval{Level: 0.95, Low: -0.1, High: 0.3, Method: "paired-bootstrap"},
			Dimensions: []compare.Dimension{{Path: []string{"a", "b.c"}, AccuracyA: &acc}, {}},
			Improved:   1, Regressed: 1,
			Flips: []compare.Flip{
				{Index: 2, StatusA: engine.StatusValid, StatusB: engine.StatusExecutionError, QA: 0.5, PredictionA: map[string]any{"x": "<&>", "n": 1.5}},
				{Index: 7, StatusA: engine.StatusInvalidOutput, StatusB: engine.StatusValid, QB: 1, PredictionA: []any{nil}, PredictionB: "é"},
			}},
		{Dimensions: []compare.Dimension{}, Flips: []compare.Flip{}},
	} {
		before, err := json.Marshal(struct {
			A string `json:"a"`
			B string `json:"b"`
			compare.Comparison
		}{"01A", "01B", c})
		if err != nil {
			t.Fatal(err)
		}
		cmp, err := wireComparison("01A", "01B", c)
		if err != nil {
			t.Fatal(err)
		}
		after, _ := json.Marshal(cmp)
		if !bytes.Equal(before, after) {
			t.Errorf("before %s\nafter  %s", before, after)
		}
		strict(t, "comparison", string(after), &api.Comparison{})
	}
}

// TestWireConstants: api's copies of the engine's, the store's and compare's constants
// (api cannot import them) are the same values, so a renamed status or a new MaxFlips
// cannot leave the web app filtering or noting by the old one.
func TestWireConstants(t *testing.T) {
	pairs := [][2]string{
		{api.Queued, string(store.Queued)}, {api.Running, string(store.Running)},
		{api.Completed, string(store.Completed)}, {api.Aborted, string(store.Aborted)},
		{api.Cancelled, string(store.Cancelled)}, {api.Interrupted, string(store.Interrupted)},
		{api.Valid, string(engine.StatusValid)}, {api.InvalidOutput, string(engine.StatusInvalidOutput)},
		{api.ExecutionError, string(engine.StatusExecutionError)},
	}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("api has %q where the server writes %q", p[0], p[1])
		}
	}
	if api.MaxFlips != compare.MaxFlips {
		t.Errorf("api.MaxFlips %d, compare.MaxFlips %d", api.MaxFlips, compare.MaxFlips)
	}
}
