package server

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestResultsScoreRange: score_min and score_max select the valid results whose score is
// in the range, counted (Total), with the example's neighbours under it; a bound that is
// not a number in [0, 1], a minimum not below the maximum, or a key twice is a 400
// bad_request saying what is allowed.
func TestResultsScoreRange(t *testing.T) {
	dir, _ := mediaWorkspace(t)
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	get := func(path string, v any) { decode(t, srv, "GET", path, "", http.StatusOK, v) }
	var all api.ResultPage
	get(api.ResultsPath(id, url.Values{"limit": {"1000"}}), &all)
	for _, c := range []struct {
		q    url.Values
		keep func(s float64) bool
	}{
		{url.Values{"score_min": {"0"}, "score_max": {"0.5"}}, func(s float64) bool { return s < 0.5 }},
		{url.Values{"score_min": {"0.5"}, "score_max": {"1"}}, func(s float64) bool { return s >= 0.5 }},
		{url.Values{"score_min": {"1"}, "score_max": {"1"}}, func(s float64) bool { return s == 1 }},
		{url.Values{"score_min": {"0"}, "score_max": {"1"}, "imperfect": {"1"}}, func(s float64) bool { return s < 1 }},
	} {
		var want []int
		for _, r := range all.Results {
			if r.Status == api.Valid && r.Score != nil && c.keep(*r.Score) {
				want = append(want, r.Index)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s selects no result of the run: the case checks nothing", c.q.Encode())
		}
		if got := filtered(t, get, id, c.q, len(want)); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", c.q.Encode(), got, want)
		}
	}
	for _, q := range []string{"score_min=0.4&score_max=0.5", "score_min=1&score_max=1", "score_max=0.5"} {
		var p api.ResultPage
		get("/api/runs/"+id+"/results?"+q, &p)
		if p.Total == nil {
			t.Errorf("?%s has no Total", q)
		}
	}
	for _, c := range []struct{ q, says string }{
		{"score_min=0.5&score_max=0.5", "score_min 0.5 is not below score_max 0.5"},
		{"score_min=0.7&score_max=0.2", "is not below"},
		{"score_min=-1", `score_min is a number from 0 to 1, not \"-1\"`},
		{"score_max=2", `score_max is a number from 0 to 1, not \"2\"`},
		{"score_min=abc", "a number from 0 to 1"},
		{"score_min=NaN", "a number from 0 to 1"},
		{"score_max=", "a number from 0 to 1"},
		{"score_min=0.1&score_min=0.2", "name it once"},
	} {
		for _, p := range []string{"/api/runs/" + id + "/results?", api.ExamplePath(id, 0) + "?"} {
			r := call(t, srv, "GET", p+c.q, "")
			if r.status != http.StatusBadRequest || !strings.Contains(r.body, `"bad_request"`) || !strings.Contains(r.body, c.says) {
				t.Errorf("%s%s: %d %s, want 400 bad_request saying %q", p, c.q, r.status, r.body, c.says)
			}
		}
	}
}
