package cli_test

import (
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// answer is the status and body of GET path.
func answer(t *testing.T, srv interface{ Client() *http.Client }, base, path string) (int, string) {
	t.Helper()
	resp, err := srv.Client().Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(data)
}

// TestRunsCompareJSONRefused: `benchy runs compare --json` of runs the API refuses to
// compare (another benchmark: 409; a run that is not there: 404) prints the API's error
// document, the same bytes GET /api/runs/compare answers, on stdout alone, and exits 1: a
// script reading --json gets JSON whatever the outcome.
func TestRunsCompareJSONRefused(t *testing.T) {
	dir, a, _ := boardWorkspace(t)
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "slow.json"), filepath.Join(dir, "slow.yaml"))
	m := storedLine.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("run slow.yaml: exit %d\n%s", code, stderr)
	}
	srv := serveAPI(t, dir)
	for _, c := range []struct {
		name   string
		b      string
		status int
	}{
		{"another benchmark", m[1], http.StatusConflict},
		{"no such run", "01NOSUCHRUN0000000000000000", http.StatusNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, want := answer(t, srv, srv.URL, api.ComparePath(a, c.b))
			if status != c.status {
				t.Fatalf("the API answers %d %s", status, want)
			}
			code, out, stderr := benchyIn(t, dir, "runs", "compare", "--json", a, c.b)
			if code != 1 || out != want || stderr != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; the API: %s", code, out, stderr, want)
			}
		})
	}
}
