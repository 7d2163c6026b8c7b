package runs

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

func TestFormatPace(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fmtRate(0), ui.NoValue},
		{fmtRate(3.14159), "3.14"},
		{fmtRate(42.42), "42.4"},
		{fmtRate(1234.5), "1234"},
		{etaText(50, 100, 10), "about 5 s left"},
		{etaText(100, 100, 10), ""},
		{etaText(1, 100, 0), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if donePct(5, 0) != 0 || donePct(1, 4) != 25 || donePct(9, 4) != 100 {
		t.Error("donePct")
	}
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
	if got := rateOf(r); got != 1 {
		t.Errorf("rateOf a finished run: %v, want its average 1/s", got)
	}
	for _, raw := range []string{`{}`, `{"report":null}`, `{"report":"junk"}`} {
		var r api.Run
		json.Unmarshal([]byte(raw), &r)
		if r.DecodeReport() != nil || rateOf(r) != 0 {
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
			live: liveRun{id: "01A", loaded: true, run: bare}, runErr: &client.Error{Code: "missing_binding", Message: "no"}},
		{path: "b.yaml", file: uitest.Loaded("b.yaml", api.BenchmarkFile{IR: json.RawMessage(`{"ai_system":{"type":"external","id":"x"}}`)}),
			bindings: uitest.Loaded("", api.Bindings{}), live: liveRun{id: "01B", loaded: true, run: done, score: &score}},
		{path: "b.yaml", file: failed, live: liveRun{id: "01C", loaded: true, run: api.Run{Status: api.Aborted, Error: &api.RunError{Code: "bad_data", File: "d.jsonl", Line: 3}}}},
	}
	uitest.Renders(t, pages...)
	var _ app.Composer = &Page{}
}
