package runs

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

func TestLangLabel(t *testing.T) {
	if langLabel(json.RawMessage(`"es"`)) != "es" || langLabel(json.RawMessage(`{"source":"es","target":"en"}`)) != "es → en" ||
		langLabel(nil) != "" || langLabel(json.RawMessage(`42`)) != "" {
		t.Error("langLabel")
	}
}

func TestPickRuns(t *testing.T) {
	var picks []string
	picks = pickRun(picks, "a", true)
	picks = pickRun(picks, "b", true)
	if strings.Join(picks, ",") != "a,b" {
		t.Fatalf("picks %v", picks)
	}
	picks = pickRun(picks, "c", true) // a third replaces the oldest
	if strings.Join(picks, ",") != "b,c" {
		t.Fatalf("picks %v", picks)
	}
	picks = pickRun(picks, "b", false)
	if strings.Join(picks, ",") != "c" {
		t.Fatalf("picks %v", picks)
	}
	p := &Page{picks: []string{"01B", "01A"}}
	if got := p.compareHref(); got != "/compare?a=01A&b=01B" {
		t.Errorf("compareHref %q: the older run is A", got)
	}
}

func TestPositive(t *testing.T) {
	for in, want := range map[string]int{"": 0, " 12 ": 12, "1": 1} {
		if got, err := positive(in, "x"); err != nil || got != want {
			t.Errorf("positive(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"0", "-3", "1.5", "ten"} {
		var e *client.Error
		if _, err := positive(in, "the limit"); !errors.As(err, &e) || e.Code != "bad_input" || ui.ErrText(err) != "the limit must be a whole number of at least 1 (or empty)" {
			t.Errorf("positive(%q): %v", in, err)
		}
	}
}

func TestDecodeServerShapes(t *testing.T) {
	// A run as GET /api/runs/{id} shows it (store.Run with the server's rate).
	const run = `{"id":"01M8","benchmark":"slow/benchmark.yaml","ir_hash":"sha256:ab","ai_system":{"type":"external","id":"slow-system"},
		"binding":"slow-system","options":{"limit":10},"status":"completed","created_at":"2026-11-29T15:51:16.1Z",
		"started_at":"2026-11-29T15:51:16.2Z","finished_at":"2026-11-29T15:51:26.2Z","total":10,"done":10,
		"summary":{"examples":10,"valid":7,"invalid_outputs":1,"execution_errors":2},
		"report":{"version":"1.0","benchmark_score":0.5089,"summary":{"examples":10,"valid":7,"invalid_outputs":1,"execution_errors":2},
		"dimensions":[{"path":["total"],"weight":3,"correct":4,"valid":7,"accuracy":0.5714}],
		"confidence_interval":{"level":0.95,"low":0.4,"high":0.6,"method":"bootstrap-percentile-2000"}},"error":null}`
	var r api.Run
	if err := json.Unmarshal([]byte(run), &r); err != nil {
		t.Fatal(err)
	}
	rep := r.DecodeReport()
	if rep == nil || ui.ScorePtr(rep.BenchmarkScore) != "0.5089" || rep.Confidence.Method != "bootstrap-percentile-2000" ||
		len(rep.Dimensions) != 1 || *rep.Dimensions[0].Accuracy != 0.5714 || r.Options.Limit != 10 {
		t.Fatalf("report %+v", rep)
	}
	if got := live.RateOf(r); got != 1 {
		t.Errorf("rateOf a finished run: %v, want its average 1/s", got)
	}
	for _, raw := range []string{`{}`, `{"report":null}`, `{"report":"junk"}`} {
		var r api.Run
		json.Unmarshal([]byte(raw), &r)
		if r.DecodeReport() != nil || live.RateOf(r) != 0 {
			t.Errorf("%s: want no report and no rate", raw)
		}
	}

	// A benchmark file: the AI-system comes from its IR, none when it does not compile.
	var f api.BenchmarkFile
	json.Unmarshal([]byte(`{"path":"b.yaml","ir":{"ai_system":{"type":"model","provider":"openai","model":"gpt"}}}`), &f)
	if s := f.AISystem(); s == nil || s.BindingName() != "openai" {
		t.Errorf("model ai-system %+v", s)
	}
	json.Unmarshal([]byte(`{"path":"b.yaml","ir":null,"diagnostics":[{"code":"missing_key"}]}`), &f)
	if f.AISystem() != nil {
		t.Error("an invalid benchmark has no ai-system")
	}
}

// TestRenderWithoutData renders the page in the states it passes through, with fields
// missing: nothing may panic, before or after the server answers.
func TestRenderWithoutData(t *testing.T) {
	score := 0.5
	done := api.Run{ID: "01B", Status: api.Completed, Report: json.RawMessage(`{"benchmark_score":0.5}`)}
	bare := api.Run{ID: "01A", Status: api.Running}
	failed := ui.Load[api.BenchmarkFile]{Err: errors.New("offline")}
	pages := []*Page{
		{},
		{path: "b.yaml", benches: uitest.Loaded[[]api.Benchmark]("", nil)},
		{path: "b.yaml", file: uitest.Loaded("b.yaml", api.BenchmarkFile{}), runs: uitest.Loaded("b.yaml", []api.Run{bare, done}), picks: []string{"01B"},
			followed: []*live.Run{{ID: "01A", Loaded: true, Record: bare}}, runErr: &client.Error{Code: "missing_binding", Message: "no"}},
		{path: "b.yaml", file: uitest.Loaded("b.yaml", api.BenchmarkFile{IR: json.RawMessage(`{"ai_system":{"type":"external","id":"x"}}`)}),
			bindings: uitest.Loaded("", api.Bindings{}), followed: []*live.Run{{ID: "01B", Loaded: true, Record: done, Score: &score}}},
		{path: "b.yaml", file: failed, followed: []*live.Run{{ID: "01C", Loaded: true, Record: api.Run{Status: api.Aborted, Error: &api.RunError{Code: "bad_data", File: "d.jsonl", Line: 3}}}}},
		// a launch of three systems, side by side, one still loading
		{path: "b.yaml", file: uitest.Loaded("b.yaml", api.BenchmarkFile{IR: json.RawMessage(`{"ai_system":{"type":"external","id":"x"}}`)}),
			bindings: uitest.Loaded("b.yaml", api.Bindings{Bindings: []string{"x", "y"}, Providers: []string{"local"}}),
			systems:  systemPicks{external: map[string]bool{"y": true}, models: []modelPick{{provider: "local", model: "m"}}},
			followed: []*live.Run{{ID: "01B", Loaded: true, Record: done, Score: &score}, {ID: "01A", Loaded: true, Record: bare}, {ID: "01D"}}},
	}
	uitest.Renders(t, pages...)
	var _ app.Composer = &Page{}
}

// TestSystemChoices: what one click runs is what the page shows checked, in its order; an
// unnamed model is not a system yet, and the own system alone asks for no systems (the
// request a start made before there were any to choose).
func TestSystemChoices(t *testing.T) {
	bindings := []string{"a", "b", "c"}
	tests := []struct {
		name  string
		picks systemPicks
		want  []api.SystemChoice
		label string
	}{
		{"the own system, by default", systemPicks{}, []api.SystemChoice{{Own: true}}, "Start run"},
		{"nothing checked", systemPicks{notOwn: true}, nil, "Start run"},
		{"own and two bindings, in the runtime file's order",
			systemPicks{external: map[string]bool{"c": true, "a": true, "b": false}},
			[]api.SystemChoice{{Own: true}, {System: "a"}, {System: "c"}}, "Run 3 systems"},
		{"a model with its name typed; one without is left out",
			systemPicks{notOwn: true, models: []modelPick{{"local", " llama3.2 "}, {"local", "  "}}},
			[]api.SystemChoice{{Model: "local/llama3.2"}}, "Run 1 system"},
		{"a binding the runtime file no longer has is not run",
			systemPicks{notOwn: true, external: map[string]bool{"gone": true}}, nil, "Start run"},
	}
	for _, tt := range tests {
		got := tt.picks.choices(bindings)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: choices %+v, want %+v", tt.name, got, tt.want)
		}
		if l := startLabel(got, false); l != tt.label {
			t.Errorf("%s: button %q, want %q", tt.name, l, tt.label)
		}
	}
	if onlyOwn([]api.SystemChoice{{Own: true}, {System: "a"}}) || !onlyOwn([]api.SystemChoice{{Own: true}}) {
		t.Error("onlyOwn")
	}
}

// TestOtherBindings: the benchmark's own binding is its own system, not offered again (a
// second, identical run of it).
func TestOtherBindings(t *testing.T) {
	p := &Page{path: "b.yaml",
		file:     uitest.Loaded("b.yaml", api.BenchmarkFile{IR: json.RawMessage(`{"ai_system":{"type":"external","id":"x"}}`)}),
		bindings: uitest.Loaded("b.yaml", api.Bindings{Bindings: []string{"w", "x", "y"}}),
	}
	if got := p.otherBindings(); !slices.Equal(got, []string{"w", "y"}) {
		t.Errorf("otherBindings %v, want [w y]", got)
	}
	p.bindings = uitest.Loaded("other.yaml", api.Bindings{Bindings: []string{"w"}})
	if got := p.otherBindings(); got != nil {
		t.Errorf("another benchmark's bindings offered: %v", got)
	}
}

// TestPartialLabels: the picker's label names a partial run's score as such, never as
// the last score, and a partial run's "of M" is the size its dataset's full runs counted; a
// last run that failed as infrastructure is said, not scored 0.0000.
func TestPartialLabels(t *testing.T) {
	score, part := 0.75, 0.9
	for _, c := range []struct {
		b    api.Benchmark
		want string
	}{
		{api.Benchmark{Path: "b.yaml", Valid: true, Task: "classify", LastScore: &score, LastPartial: &api.PartialScore{ID: "01B", Score: &part, Examples: 5}},
			"b.yaml — classify — last score 0.7500"},
		{api.Benchmark{Path: "b.yaml", Valid: true, Task: "classify", LastPartial: &api.PartialScore{ID: "01B", Score: &part, Examples: 5}},
			"b.yaml — classify — partial score 0.9000 (first 5)"},
		{api.Benchmark{Path: "b.yaml", Valid: true, Task: "classify", LastScore: new(0.0), LastFailed: true},
			"b.yaml — classify — last run failed infrastructure"},
	} {
		if got := benchLabel(c.b); got != c.want {
			t.Errorf("benchLabel %q, want %q", got, c.want)
		}
	}
	full := api.Run{ID: "01A", Status: api.Completed, DatasetDigest: "d1", Summary: &api.Summary{Examples: 60}}
	partial := api.Run{ID: "01B", Status: api.Completed, DatasetDigest: "d1", Options: api.Options{Limit: 5}, Summary: &api.Summary{Examples: 5}}
	other := api.Run{ID: "01C", Status: api.Completed, DatasetDigest: "d2", Options: api.Options{Limit: 5}, Summary: &api.Summary{Examples: 5}}
	sizes := datasetSizes([]api.Run{partial, full, other})
	if sizes["d1"] != 60 || sizes["d2"] != 0 {
		t.Errorf("dataset sizes %v, want d1 60 (its full run) and no d2", sizes)
	}
}
