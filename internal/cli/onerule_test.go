package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestOneRuntimeRuleSubfolder runs one benchmark of a workspace's subfolder, which has its
// own runtime file, through `benchy run` and through the API of a real server on the
// workspace: both bind through ws/sub/benchy.runtime.yaml (the nearest at or above the
// benchmark's folder), so they get the same binding and the same results. The workspace's
// own runtime file binds the same AI-system to cat, whose echoes are no answers: a run
// bound through it scores 0 (the server read only that file before).
func TestOneRuntimeRuleSubfolder(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	sub := filepath.Join(ws, "sub")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(invoiceRun(t), sub); err != nil { // with sub/benchy.runtime.yaml
		t.Fatal(err)
	}
	top := "bindings:\n  invoice-extractor-v7:\n    command: [cat]\n    timeout: 10s\n"
	if err := os.WriteFile(filepath.Join(ws, "benchy.runtime.yaml"), []byte(top), 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), "results.json")
	if code, _, stderr := runBenchy(t, "run", "--no-store", "-o", out, filepath.Join(sub, "benchmark.yaml")); code != 0 {
		t.Fatalf("benchy run: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var cli resultDoc
	if err := json.Unmarshal(data, &cli); err != nil {
		t.Fatal(err)
	}

	srv := serveAPI(t, ws)
	var started struct{ ID string }
	if code := apiCall(t, srv, "POST", "/api/runs", `{"benchmark": "sub/benchmark.yaml"}`, &started); code != http.StatusAccepted {
		t.Fatalf("POST /api/runs: %d", code)
	}
	if run := waitRun(t, srv, started.ID); run.Status != api.Completed {
		t.Fatalf("run %s is %s", started.ID, run.Status)
	}
	var web resultDoc
	if code := apiCall(t, srv, "GET", "/api/runs/"+started.ID+"/results?format=json", "", &web); code != http.StatusOK {
		t.Fatalf("export: %d", code)
	}

	if cli.Binding != "invoice-extractor-v7" || web.Binding != cli.Binding {
		t.Errorf("binding: benchy run %q, server %q", cli.Binding, web.Binding)
	}
	if cli.IRHash != web.IRHash || cli.Summary != web.Summary || cli.BenchmarkScore != web.BenchmarkScore {
		t.Errorf("benchy run: %s %+v score %v\nserver:     %s %+v score %v", cli.IRHash, cli.Summary, cli.BenchmarkScore, web.IRHash, web.Summary, web.BenchmarkScore)
	}
	if cli.Summary.Valid != 6 { // the stand-in's answers, not cat's
		t.Errorf("benchy run bound through the wrong file: %+v", cli.Summary)
	}
	if len(cli.Results) != len(web.Results) {
		t.Fatalf("%d results from benchy run, %d from the server", len(cli.Results), len(web.Results))
	}
	for i, c := range cli.Results {
		w := web.Results[i]
		if c.Index != w.Index || c.Status != w.Status || (c.Score == nil) != (w.Score == nil) || c.Score != nil && *c.Score != *w.Score {
			t.Errorf("example %d: benchy run %s %s, server %s %s", c.Index, c.Status, score(c.Score), w.Status, score(w.Score))
		}
	}
}

// apiCall calls the server's API with a JSON body (or none), decodes its JSON answer into v
// and returns the status.
func apiCall(t *testing.T, srv *httptest.Server, method, path, body string, v any) int {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s %s: %d %v\n%s", method, path, resp.StatusCode, err, data)
	}
	if resp.StatusCode >= 300 {
		t.Logf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode
}

func score(p *float64) string {
	if p == nil {
		return "unscored"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}
