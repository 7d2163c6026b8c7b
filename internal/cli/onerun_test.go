package cli_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
)

// TestOneRunServiceStored runs one benchmark through `benchy run` (recorded in its
// workspace's store) and through the API of a server on that workspace, and reads both
// runs back through the API: the same benchmark path, IR bytes, IR hash, AI-system,
// binding, status and summary, and the same stored results, byte for byte. A dataset
// with a broken line aborts both alike: the same diagnostic (file, line, code, message).
func TestOneRunServiceStored(t *testing.T) {
	for _, tc := range []struct {
		name   string
		broken bool
		status string
	}{
		{"completed", false, api.Completed},
		{"aborted", true, api.Aborted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := invoiceRun(t) // its runtime file makes it a workspace
			if tc.broken {
				data := filepath.Join(ws, "data", "invoices.jsonl")
				rows, err := os.ReadFile(data)
				if err != nil {
					t.Fatal(err)
				}
				lines := bytes.SplitAfter(rows, []byte("\n"))
				lines[2] = []byte("{not json\n")
				os.WriteFile(data, bytes.Join(lines, nil), 0o644)
			}
			out := filepath.Join(t.TempDir(), "results.json")
			code, _, stderr := runBenchy(t, "run", "-o", out, filepath.Join(ws, "benchmark.yaml"))
			if want := map[bool]int{false: 0, true: 1}[tc.broken]; code != want {
				t.Fatalf("benchy run: exit %d, want %d\n%s", code, want, stderr)
			}

			srv := serveAPI(t, ws)
			var list api.Runs
			if code := apiCall(t, srv, "GET", api.RunsPath, "", &list); code != http.StatusOK || len(list.Runs) != 1 {
				t.Fatalf("GET /api/runs: %d, %d runs, want the one benchy run recorded\n%s", code, len(list.Runs), stderr)
			}
			var started api.Started
			if code := apiCall(t, srv, "POST", api.RunsPath, `{"benchmark": "benchmark.yaml"}`, &started); code != http.StatusAccepted {
				t.Fatalf("POST /api/runs: %d", code)
			}
			cli, web := waitRun(t, srv, list.Runs[0].ID), waitRun(t, srv, started.ID)

			if cli.Status != tc.status || web.Status != tc.status {
				t.Fatalf("status: benchy run %s, server %s, want %s", cli.Status, web.Status, tc.status)
			}
			if cli.Benchmark != web.Benchmark || !bytes.Equal(cli.IR, web.IR) || cli.IRHash != web.IRHash ||
				!bytes.Equal(cli.AISystem, web.AISystem) || cli.Binding != web.Binding || cli.Binding != "invoice-extractor-v7" {
				t.Errorf("benchy run: %s %s %s %s\nserver:     %s %s %s %s", cli.Benchmark, cli.IRHash, cli.AISystem, cli.Binding,
					web.Benchmark, web.IRHash, web.AISystem, web.Binding)
			}
			if !reflect.DeepEqual(cli.Summary, web.Summary) || cli.Total != web.Total || cli.Done != web.Done {
				t.Errorf("summary: benchy run %+v %d/%d, server %+v %d/%d", cli.Summary, cli.Done, cli.Total, web.Summary, web.Done, web.Total)
			}
			if !reflect.DeepEqual(cli.Error, web.Error) || tc.broken != (cli.Error != nil) {
				t.Errorf("error: benchy run %+v, server %+v", cli.Error, web.Error)
			}
			if tc.broken {
				if e := cli.Error; e.File != "data/invoices.jsonl" || e.Line != 3 || e.Code != "invalid_dataset_record" {
					t.Errorf("the abort: %+v, want line 3 of data/invoices.jsonl", e)
				}
				return
			}
			if a, b := export(t, srv, cli.ID), export(t, srv, web.ID); a != b || a == "" {
				t.Errorf("stored results differ:\nbenchy run:\n%s\nserver:\n%s", a, b)
			}
		})
	}
}

// waitRun waits for run id to end and returns it.
func waitRun(t *testing.T, srv *httptest.Server, id string) api.Run {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var run api.Run
		apiCall(t, srv, "GET", api.RunPath(id), "", &run)
		if !api.Active(run.Status) {
			return run
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s is still %s", id, run.Status)
		}
	}
}

// export is every stored result of run id, as JSONL.
func export(t *testing.T, srv *httptest.Server, id string) string {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + api.ResultsPath(id, url.Values{"format": {"jsonl"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("export of %s: %d %s", id, resp.StatusCode, data)
	}
	return string(data)
}
