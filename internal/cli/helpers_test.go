package cli_test

import (
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/server"
)

// runEach runs dir/<b>/benchmark.yaml into dir/<b>/results.json for each b, failing the
// test on a non-zero exit, and returns the runs' stderr, which is the run log.
func runEach(t *testing.T, dir string, benchmarks ...string) string {
	t.Helper()
	var logs strings.Builder
	for _, b := range benchmarks {
		code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, b, "results.json"), filepath.Join(dir, b, "benchmark.yaml"))
		logs.WriteString(stderr)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", b, code, stderr)
		}
	}
	return logs.String()
}

// exportAll returns `runs list` of workspace dir followed by every run's export in each
// format.
func exportAll(t *testing.T, dir string) string {
	t.Helper()
	code, list, stderr := runBenchy(t, "runs", "list", "--workspace", dir)
	if code != 0 {
		t.Fatalf("runs list: %d %s", code, stderr)
	}
	exports := list
	for _, line := range strings.Split(list, "\n") {
		id, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if len(id) != 26 {
			continue
		}
		for _, format := range []string{"json", "jsonl", "csv"} {
			_, out, _ := runBenchy(t, "runs", "export", "--workspace", dir, "--format", format, id)
			exports += out
		}
	}
	return exports
}

// eachFile calls f with the path and the content of every file under dir.
func eachFile(t *testing.T, dir string, f func(path, data string)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f(path, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// serveAPI serves a real server on workspace ws, closed when the test ends.
func serveAPI(t *testing.T, ws string) *httptest.Server {
	t.Helper()
	s, err := server.New(server.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		srv.Close()
		s.Close()
	})
	return srv
}
