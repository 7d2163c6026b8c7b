package server

import (
	"io"
	"net/http"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestReportsBounded: at most maxReports HTML reports are built at once (each is built in
// memory); one more answers 503 busy with Retry-After, and a slot freed serves again.
func TestReportsBounded(t *testing.T) {
	dir := runWorkspace(t, slow{})
	s, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	get := func() *http.Response {
		resp, err := srv.Client().Get(srv.URL + api.ReportPath(id))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for range maxReports {
		s.reports <- struct{}{} // reports being built
	}
	if resp := get(); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a report beyond %d at once: %d, Retry-After %q; want 503 with Retry-After", maxReports, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	<-s.reports
	if resp := get(); resp.StatusCode != http.StatusOK {
		t.Errorf("a report with a slot free: %d, want 200", resp.StatusCode)
	}
}
