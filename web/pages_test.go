package web

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// Unit tests of the runs, results, compare and ontology pages' helpers: pure Go, no browser.

func TestPagesFormatNumbers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fmtScore(0.85714), "0.8571"},
		{fmtScore(1), "1.0000"},
		{fmtSigned(0.0123), "+0.0123"},
		{fmtSigned(-0.0123), "-0.0123"},
		{fmtSigned(0), "0.0000"},
		{fmtScorePtr(nil), noValue},
		{fmtPct(0.875), "87.5%"},
		{fmtPoints(0.125), "+12.5 pts"},
		{fmtPoints(-0.05), "-5.0 pts"},
		{fmtPoints(0.00001), "±0.0 pts"},
		{fmtInt(0), "0"},
		{fmtInt(999), "999"},
		{fmtInt(1000), "1,000"},
		{fmtInt(1234567), "1,234,567"},
		{fmtInt(-1234), "-1,234"},
		{fmtRate(0), noValue},
		{fmtRate(3.14159), "3.14"},
		{fmtRate(42.42), "42.4"},
		{fmtRate(1234.5), "1234"},
		{fmtDuration(450 * time.Millisecond), "450 ms"},
		{fmtDuration(45 * time.Second), "45 s"},
		{fmtDuration(200 * time.Second), "3 min 20 s"},
		{fmtDuration(3 * time.Minute), "3 min"},
		{fmtDuration(125 * time.Minute), "2 h 5 min"},
		{etaText(50, 100, 10), "about 5 s left"},
		{etaText(100, 100, 10), ""},
		{etaText(1, 100, 0), ""},
		{fmtInterval(api.Interval{Low: 0.7, High: 0.95}), "[0.7000, 0.9500]"},
		{fmtSignedInterval(api.Interval{Low: -0.01, High: 0.02}), "[-0.0100, +0.0200]"},
		{fmtLevel(api.Interval{Level: 0.95}), "95% CI"},
		{fmtLevel(api.Interval{}), "CI"},
		{barWidth(0.5), "50.00%"},
		{barWidth(2), "100.00%"},
		{barWidth(-1), "0.00%"},
		{pluralize(1, "problem"), "1 problem"},
		{pluralize(1000, "example"), "1,000 examples"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if donePct(5, 0) != 0 || donePct(1, 4) != 25 || donePct(9, 4) != 100 {
		t.Error("donePct")
	}
	if pageCount(0, 50) != 1 || pageCount(50, 50) != 1 || pageCount(51, 50) != 2 || pageCount(100000, 50) != 2000 {
		t.Error("pageCount")
	}
}

func TestPagesClipAndJSON(t *testing.T) {
	if s, ok := clipText("short", 10); s != "short" || ok {
		t.Errorf("clipText short: %q %v", s, ok)
	}
	if s, ok := clipText("abcdefghij", 10); s != "abcdefghij" || ok {
		t.Errorf("clipText exact: %q %v", s, ok)
	}
	if s, ok := clipText("abcdefghijk", 10); s != "abcdefghi…" || !ok {
		t.Errorf("clipText long: %q %v", s, ok)
	}
	if s, _ := clipText("ñandú ñandú ñandú", 6); s != "ñandú…" {
		t.Errorf("clipText runes: %q", s)
	}
	for in, want := range map[string]string{
		"":                                     "",
		"null":                                 "null",
		"{ \"a\" : [1, 2],\n \"b\": \"x y\" }": `{"a":[1,2],"b":"x y"}`,
		"not json":                             "not json",
	} {
		if got := compactJSON(json.RawMessage(in)); got != want {
			t.Errorf("compactJSON(%q) = %q, want %q", in, got, want)
		}
	}
	if langLabel(json.RawMessage(`"es"`)) != "es" || langLabel(json.RawMessage(`{"source":"es","target":"en"}`)) != "es → en" ||
		langLabel(nil) != "" || langLabel(json.RawMessage(`42`)) != "" {
		t.Error("langLabel")
	}
	if dotted([]string{"supplier", "name"}) != "supplier.name" || dotted(nil) != noValue {
		t.Error("dotted")
	}
	if statusText("invalid_output") != "invalid output" || statusText("") != "unknown" {
		t.Error("statusText")
	}
}

func TestPagesURLs(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{runsURL("slow/benchmark.yaml", ""), "/runs?benchmark=slow%2Fbenchmark.yaml"},
		{runsURL("a b.yaml", "01ABC"), "/runs?benchmark=a+b.yaml&run=01ABC"},
		{runsURL("", ""), "/runs"},
		{resultsURL("01ABC", ""), "/results?run=01ABC"},
		{resultsURL("01ABC", "invalid_output"), "/results?run=01ABC&status=invalid_output"},
		{compareURL("A", "B"), "/compare?a=A&b=B"},
		{compareURL("A", ""), "/compare?a=A"},
		{compareURL("", ""), "/compare"},
		{api.BenchmarkPath("dir with space/b#1.yaml"), "/api/benchmarks/dir%20with%20space/b%231.yaml"},
		{exportHref("01ABC", "csv"), "/api/runs/01ABC/results?format=csv"},
		{editorURL("x/b.yaml"), "/?path=x%2Fb.yaml"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestPagesPickRuns(t *testing.T) {
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
	p := &RunsPage{picks: []string{"01B", "01A"}}
	if got := p.compareHref(); got != "/compare?a=01A&b=01B" {
		t.Errorf("compareHref %q: the older run is A", got)
	}
}

func TestPagesPositive(t *testing.T) {
	for in, want := range map[string]int{"": 0, " 12 ": 12, "1": 1} {
		if got, err := positive(in, "x"); err != nil || got != want {
			t.Errorf("positive(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"0", "-3", "1.5", "ten"} {
		var e *APIError
		if _, err := positive(in, "the limit"); !errors.As(err, &e) || e.Code != "bad_input" {
			t.Errorf("positive(%q): %v", in, err)
		}
	}
}

func TestPagesDecodeServerShapes(t *testing.T) {
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
	if rep == nil || fmtScorePtr(rep.BenchmarkScore) != "0.5089" || rep.Confidence.Method != "bootstrap-percentile-2000" ||
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

	// A page of results (engine.ExampleResult) and a comparison.
	var pg api.ResultPage
	json.Unmarshal([]byte(`{"results":[{"index":3,"status":"execution_error","prediction":null,"field_scores":null,"score":null,
		"contribution":0,"error":{"code":"adapter_error","path":null,"message":"boom"}}],"next":-1}`), &pg)
	if len(pg.Results) != 1 || pg.Results[0].Error.Code != "adapter_error" || pg.Next != -1 {
		t.Errorf("page %+v", pg)
	}
	var c api.Comparison
	json.Unmarshal([]byte(`{"a":"A","b":"B","examples":4,"score_a":0.5,"score_b":0.75,"delta":0.25,
		"delta_interval":{"level":0.95,"low":0.1,"high":0.4,"method":"paired-bootstrap-percentile-2000"},
		"dimensions":[{"path":["x"],"accuracy_a":0.5,"accuracy_b":null,"delta":null}],"improved":1,"regressed":0,
		"flips":[{"index":2,"status_a":"valid","status_b":"valid","contribution_a":0,"contribution_b":1}]}`), &c)
	if c.Interval.Method != "paired-bootstrap-percentile-2000" || c.Flips[0].QB != 1 || c.Dimensions[0].Delta != nil {
		t.Errorf("comparison %+v", c)
	}
}

func TestPagesCanCompare(t *testing.T) {
	a := &api.Run{ID: "a", IRHash: "h", Total: 10}
	if !canCompare(nil, nil) || !canCompare(a, &api.Run{ID: "b", IRHash: "h", Total: 10}) ||
		canCompare(a, a) || canCompare(a, nil) ||
		canCompare(a, &api.Run{ID: "b", IRHash: "other", Total: 10}) || canCompare(a, &api.Run{ID: "b", IRHash: "h", Total: 5}) {
		t.Error("canCompare")
	}
}

func TestPagesOntologySearch(t *testing.T) {
	if !ontoMatches("", "x") || !ontoMatches("ENUM", "that field is an enum") || !ontoMatches("single code", "language is a single code") ||
		ontoMatches("enum audio", "that field is an enum") || !ontoMatches("esp", "es", "Spanish", "español") {
		t.Error("ontoMatches")
	}
}

// TestPagesRenderWithoutData renders every page in the states it passes through, with
// fields missing: nothing may panic, before or after the server answers.
func TestPagesRenderWithoutData(t *testing.T) {
	score := 0.5
	done := &api.Run{ID: "01B", Status: api.Completed, Report: json.RawMessage(`{"benchmark_score":0.5}`)}
	bare := api.Run{ID: "01A", Status: api.Running}
	pages := []interface{ Render() app.UI }{
		&RunsPage{},
		&RunsPage{path: "b.yaml", benchesOK: true},
		&RunsPage{path: "b.yaml", file: &api.BenchmarkFile{}, runsOK: true, runs: []api.Run{bare, *done}, picks: []string{"01B"},
			live: liveRun{id: "01A", loaded: true, run: bare}, runErr: &APIError{Code: "missing_binding", Message: "no"}},
		&RunsPage{path: "b.yaml", file: &api.BenchmarkFile{IR: json.RawMessage(`{"ai_system":{"type":"external","id":"x"}}`)},
			bindings: &api.Bindings{}, live: liveRun{id: "01B", loaded: true, run: *done, score: &score}},
		&RunsPage{path: "b.yaml", live: liveRun{id: "01C", loaded: true, run: api.Run{Status: api.Aborted, Error: &api.RunError{Code: "bad_data", File: "d.jsonl", Line: 3}}}},
		&ResultsPage{},
		&ResultsPage{id: "01A"},
		&ResultsPage{id: "01A", run: &bare, page: &api.ResultPage{Results: []api.Result{{}, {Status: api.Valid, FieldScores: []api.FieldScore{{}}, Error: &api.ResultError{}}}}},
		&ResultsPage{id: "01B", run: done, page: &api.ResultPage{Next: -1}, status: api.Valid},
		&ResultsPage{id: "01A", runErr: errors.New("offline")},
		&ComparePage{},
		&ComparePage{a: "01A"},
		&ComparePage{a: "01A", b: "01B", candsOK: true, cands: []api.Run{bare, *done}},
		&ComparePage{a: "01A", b: "01B", cmp: &api.Comparison{Dimensions: []api.CompareDimension{{}}, Flips: make([]api.Flip, 150)}},
		&ComparePage{a: "01A", b: "01B", cmpErr: &APIError{Code: "different_lengths"}},
		&OntologyPage{},
		&OntologyPage{query: "nothing matches this"},
	}
	for i, p := range pages {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("page %d (%T) panicked: %v", i, p, r)
				}
			}()
			if p.Render() == nil {
				t.Errorf("page %d rendered nothing", i)
			}
		}()
	}
}
