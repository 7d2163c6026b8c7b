package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// filtered pages through run id's results under query q, two at a time, checking each
// page's Total against want's length; it returns the indexes in the order served.
func filtered(t *testing.T, call func(path string, v any), id string, q url.Values, want int) []int {
	t.Helper()
	var got []int
	after := -1
	for pages := 0; pages < 100; pages++ {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		qq.Set(api.QAfter, fmt.Sprint(after))
		qq.Set(api.QLimit, "2")
		var p api.ResultPage
		call(api.ResultsPath(id, qq), &p)
		if p.Total != nil && *p.Total != want {
			t.Errorf("%s: total %d, want %d", q.Encode(), *p.Total, want)
		}
		for _, r := range p.Results {
			got = append(got, r.Index)
		}
		if p.Next < 0 {
			return got
		}
		after = p.Next
	}
	t.Fatalf("%s: more than 100 pages", q.Encode())
	return nil
}

// TestResultsFilters: each filter of the results page selects what a count over every
// result says (by status, imperfect, a wrong dimension, an error code, a text, a
// confusion cell; sorted by score), page by page, with its Total; an example's detail
// names its neighbours under the same filter; a filter value the run cannot have is a
// 400 bad_request saying what it can.
func TestResultsFilters(t *testing.T) {
	dir, _ := mediaWorkspace(t)
	_, srv := serve(t, Config{Workspace: dir})
	slowRun := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	media := startRun(t, srv, `{"benchmark": "media/benchmark.yaml"}`)
	waitStatus(t, srv, slowRun, store.Completed)
	waitStatus(t, srv, media, store.Completed)
	get := func(path string, v any) { decode(t, srv, "GET", path, "", http.StatusOK, v) }

	for _, id := range []string{slowRun, media} {
		var all api.ResultPage
		get(api.ResultsPath(id, url.Values{"limit": {"1000"}}), &all)
		text := func(r api.Result) string {
			s := string(r.Input) + string(r.Expected) + string(r.Prediction)
			if r.Error != nil {
				s += r.Error.Message
			}
			return strings.ToLower(s)
		}
		wrong := func(dim string) func(api.Result) bool {
			return func(r api.Result) bool {
				return r.Status == api.Valid && slices.ContainsFunc(r.FieldScores, func(f api.FieldScore) bool { return api.DimensionKey(f.Path) == dim && f.Score == 0 })
			}
		}
		field := func(r api.Result, side json.RawMessage, k string) string {
			var m map[string]any
			json.Unmarshal(side, &m)
			s, _ := m[k].(string)
			return s
		}
		cases := []struct {
			q    url.Values
			keep func(api.Result) bool
		}{
			{url.Values{}, func(api.Result) bool { return true }},
			{url.Values{"status": {"valid"}}, func(r api.Result) bool { return r.Status == api.Valid }},
			{url.Values{"status": {"execution_error"}}, func(r api.Result) bool { return r.Status == api.ExecutionError }},
			{url.Values{"imperfect": {"1"}}, func(r api.Result) bool { return r.Contribution < 1 }},
			{url.Values{"imperfect": {"1"}, "status": {"valid"}}, func(r api.Result) bool { return r.Contribution < 1 && r.Status == api.Valid }},
			{url.Values{"code": {"adapter_error"}}, func(r api.Result) bool { return r.Error != nil && r.Error.Code == "adapter_error" }},
			{url.Values{"code": {"invalid_enum"}}, func(r api.Result) bool { return r.Error != nil && r.Error.Code == "invalid_enum" }},
			{url.Values{"q": {"EX-05"}}, func(r api.Result) bool { return strings.Contains(text(r), "ex-05") }},
			{url.Values{"q": {"fail"}}, func(r api.Result) bool { return strings.Contains(text(r), "fail") }},
		}
		if id == slowRun {
			cases = append(cases, struct {
				q    url.Values
				keep func(api.Result) bool
			}{url.Values{"wrong": {"total"}}, wrong("total")})
		} else {
			for _, cell := range [][2]string{{"cat", "cat"}, {"cat", "dog"}, {"dog", "cat"}} {
				cases = append(cases, struct {
					q    url.Values
					keep func(api.Result) bool
				}{url.Values{"field": {"label"}, "expected": {cell[0]}, "predicted": {cell[1]}}, func(r api.Result) bool {
					return r.Status == api.Valid && field(r, r.Expected, "label") == cell[0] && field(r, r.Prediction, "label") == cell[1]
				}})
			}
			cases = append(cases, struct {
				q    url.Values
				keep func(api.Result) bool
			}{url.Values{"wrong": {"label"}}, wrong("label")})
		}
		for _, c := range cases {
			var want []int
			for _, r := range all.Results {
				if c.keep(r) {
					want = append(want, r.Index)
				}
			}
			got := filtered(t, get, id, c.q, len(want))
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: %v, want %v", id, c.q.Encode(), got, want)
			}
			// sorted by score: the same results, contribution ascending, then index
			byScore := slices.Clone(want)
			contribution := map[int]float64{}
			for _, r := range all.Results {
				contribution[r.Index] = r.Contribution
			}
			slices.SortStableFunc(byScore, func(a, b int) int {
				switch {
				case contribution[a] < contribution[b]:
					return -1
				case contribution[a] > contribution[b]:
					return 1
				}
				return a - b
			})
			sq := url.Values{"sort": {"score"}}
			for k, v := range c.q {
				sq[k] = v
			}
			if got := filtered(t, get, id, sq, len(want)); !slices.Equal(got, byScore) {
				t.Errorf("%s %s: %v, want %v", id, sq.Encode(), got, byScore)
			}
			// the neighbours of each selected example under the same filter
			for k, idx := range want {
				var d api.ExampleDetail
				get(api.ExamplePath(id, idx)+"?"+c.q.Encode(), &d)
				prev, next := -1, -1
				if k > 0 {
					prev = want[k-1]
				}
				if k+1 < len(want) {
					next = want[k+1]
				}
				if d.Index != idx || d.Prev != prev || d.Next != next || d.Input == nil {
					t.Errorf("%s %s: example %d: index %d, prev %d next %d, want %d %d (input %s)", id, c.q.Encode(), idx, d.Index, d.Prev, d.Next, prev, next, d.Input)
				}
			}
		}
	}

	for _, c := range []struct{ q, says string }{
		{"status=done", "valid, invalid_output or execution_error"},
		{"imperfect=yes", "imperfect is 1"},
		{"wrong=totl", "its dimensions are number, total"},
		{"wrong=", "its dimensions are number, total"},
		{"code=", "code is empty"},
		{"q=" + strings.Repeat("x", store.MaxSearch+1), "a search is at most 1024"},
		{"field=label&expected=cat&predicted=dog", "no enum dimension"},
		{"field=total&expected=1&predicted=2", "no enum dimension"},
		{"sort=date", "sort is index or score"},
		{"status=valid&status=invalid_output", "name it once"},
		{"after=x", "after must be an integer"},
	} {
		r := call(t, srv, "GET", "/api/runs/"+slowRun+"/results?"+c.q, "")
		if r.status != http.StatusBadRequest || !strings.Contains(r.body, `"bad_request"`) || !strings.Contains(r.body, c.says) {
			t.Errorf("?%s: %d %s, want 400 bad_request saying %q", c.q, r.status, r.body, c.says)
		}
	}
	for _, c := range []struct{ q, says string }{
		{"field=drawing&expected=cat&predicted=dog", "its enum dimensions are label"},
		{"field=label&expected=bird&predicted=dog", "is not a value of label (cat, dog)"},
		{"field=label&expected=cat&predicted=bird", "bird\\\" is not a value of label"},
		{"field=label&expected=cat", "field, expected and predicted together"},
	} {
		for _, p := range []string{"/api/runs/" + media + "/results?", api.ExamplePath(media, 0) + "?"} {
			r := call(t, srv, "GET", p+c.q, "")
			if r.status != http.StatusBadRequest || !strings.Contains(r.body, `"bad_request"`) || !strings.Contains(r.body, c.says) {
				t.Errorf("%s%s: %d %s, want 400 bad_request saying %q", p, c.q, r.status, r.body, c.says)
			}
		}
	}
}
