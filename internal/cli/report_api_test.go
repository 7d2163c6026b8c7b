package cli_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestReportAPISameFile: GET /api/report sends, as an attachment under a CSP that runs
// nothing, the very bytes benchy report writes for the same runs; no run is a 400, an
// unknown one a 404.
func TestReportAPISameFile(t *testing.T) {
	dir := invoiceRun(t)
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	m := storedLine.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	id := m[1]
	file := filepath.Join(dir, "r.html")
	if code, _, stderr := benchyIn(t, dir, "report", "--examples", "5", id, "-o", file); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	srv := serveAPI(t, dir)
	get := func(path string) (*http.Response, []byte) {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, got := get("/api/report?examples=5&run=" + id[len(id)-8:])
	if resp.StatusCode != 200 || string(got) != string(want) {
		t.Errorf("GET /api/report: %d, %d bytes; benchy report wrote %d", resp.StatusCode, len(got), len(want))
	}
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="benchy-report.html"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); csp == "" {
		t.Errorf("no CSP")
	}
	if resp, _ := get("/api/report"); resp.StatusCode != 400 {
		t.Errorf("no run: %d", resp.StatusCode)
	}
	if resp, _ := get("/api/report?run=ZZZZZZZZ"); resp.StatusCode != 404 {
		t.Errorf("an unknown run: %d", resp.StatusCode)
	}
}
