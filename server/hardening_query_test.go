package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/store"
)

// TestQueryRefused: a query url.Query would read with a pair dropped (a raw ';', a bad
// escape) is refused with 400 bad_request on every API endpoint, so that no filter
// vanishes (a page or an export of the whole run); an escaped ';' is a character of the
// search. A report of a part of an id two runs share is 400 with the store's sentence,
// not a 500; GET /api/runs/{id} takes a whole id only (404 for a part). And the mux's
// an artifact path that is not clean (which the mux would redirect with an HTML body) is a
// 400 under the sandboxing CSP.
func TestQueryRefused(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	b := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	for _, id := range []string{a, b} {
		waitStatus(t, srv, id, store.Completed)
	}
	for _, q := range []string{"q=zzqq;x", "q=zzqq;x&format=csv", "format=jsonl&status=valid;x", "q=%zz", "status=valid&q=a%2"} {
		r := call(t, srv, "GET", "/api/runs/"+a+"/results?"+q, "")
		if r.status != http.StatusBadRequest || !strings.Contains(r.body, "bad_request") || !strings.Contains(r.body, "the query has a ';' or bad escape") {
			t.Errorf("?%s: %d %s, want 400 bad_request", q, r.status, clipName(r.body))
		}
	}
	if r := call(t, srv, "GET", "/api/runs/"+a+"/results?q=zzqq%3Bx", ""); r.status != http.StatusOK {
		t.Errorf("an escaped ';': %d %s", r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/runs?x=1;2", ""); r.status != http.StatusBadRequest {
		t.Errorf("/api/runs?x=1;2: %d %s", r.status, clipName(r.body))
	}

	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if n < store.MinFind {
		t.Skipf("runs %s and %s share only %d characters", a, b, n)
	}
	shared := a[:n]
	r := call(t, srv, "GET", "/api/report?run="+shared, "")
	if r.status != http.StatusBadRequest || !strings.Contains(r.body, "names several runs") || !strings.Contains(r.body, "give more of its id") {
		t.Errorf("report of %s, shared by %s and %s: %d %s, want 400 naming them", shared, a, b, r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/report?run="+a[len(a)-8:], ""); r.status != http.StatusOK {
		t.Errorf("report of the end of %s: %d %s", a, r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/report?run=ZZZZZZZZ", ""); r.status != http.StatusNotFound {
		t.Errorf("report of no run: %d %s, want 404", r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/runs/"+shared, ""); r.status != http.StatusNotFound {
		t.Errorf("GET /api/runs/%s (a part of an id): %d %s, want 404: it takes whole ids", shared, r.status, r.body)
	}

	for _, p := range []string{"/api/runs/" + a + "/artifacts/0/../img/a0.png", "/api/runs/" + a + "/artifacts/0//x.png"} {
		resp, body := getRaw(t, srv, p)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", p, resp.StatusCode, body)
		}
		checkSandboxed(t, p, resp)
	}
}
