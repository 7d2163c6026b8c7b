package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
)

// compileShapes are 1 MB of each pathological shape of issue 11 (the compiler's
// TestHardeningShapes has more), with the code each must be refused with.
func compileShapes() []struct {
	name string
	yaml string
	code diag.Code
} {
	rep := strings.Repeat
	const n = 1_000_000
	lines := func(count int, line func(i int) string) string {
		var b strings.Builder
		for i := range count {
			b.WriteString(line(i))
		}
		return b.String()
	}
	var deep strings.Builder
	for i := 0; deep.Len() < n; i++ {
		deep.WriteString(rep(" ", i) + "a:\n")
	}
	return []struct {
		name string
		yaml string
		code diag.Code
	}{
		{"deep_block", deep.String(), diag.TooDeep},
		{"deep_block_seq", rep("- ", n/2) + "x\n", diag.TooDeep},
		{"deep_flow_seq", "a: " + rep("[", n/2) + rep("]", n/2) + "\n", diag.TooDeep},
		{"deep_flow_map", "a: " + rep("{a: ", n/5) + "1" + rep("}", n/5) + "\n", diag.TooDeep},
		{"aliases", "a: &x 1\nb: [" + rep("*x, ", n/4) + "*x]\n", diag.InvalidYAML},
		{"anchors", lines(n/12, func(i int) string { return fmt.Sprintf("- &a%d 1\n", i) }), diag.InvalidYAML},
		{"keys", lines(n/11, func(i int) string { return fmt.Sprintf("k%06d: 1\n", i) }), diag.TooLarge},
		{"keys_under_the_token_bound", lines(31_000, func(i int) string { return fmt.Sprintf("k%06d: 1\n", i) }), diag.TooManyDiagnostics},
		{"long_line", "a: " + rep("x", n) + "\n", diag.UnknownKey},
		{"unknown_keys", "version: \"1.0\"\nai-system:\n" + lines(31_000, func(i int) string { return fmt.Sprintf("  p%d: 1\n", i) }), diag.TooManyDiagnostics},
		{"control_character", rep("#"+rep("x", 98)+"\n", n/100-1) + "a: \x01\n", diag.InvalidYAML},
	}
}

// TestHardeningCompileAPI (issue 11, finding 3): the pathological inputs POSTed to
// /api/compile and PUT to /api/benchmarks/{path} of a real server answer within 200 ms and
// 100 MB (server and client together, in this process) with a non-empty JSON body carrying
// the diagnostic, at most 101 of them. 1 MB nested 100,000 deep took the server to 24 GB,
// and past 10,000 levels the API answered 200 with an empty body.
func TestHardeningCompileAPI(t *testing.T) {
	dir := t.TempDir()
	_, srv := serve(t, Config{Workspace: dir})
	for _, s := range compileShapes() {
		body, err := json.Marshal(map[string]string{"yaml": s.yaml})
		if err != nil {
			t.Fatal(err)
		}
		// Each try saves over the version it names: the file holds the shape already.
		os.WriteFile(filepath.Join(dir, s.name+".yaml"), []byte(s.yaml), 0o644)
		for _, req := range []struct{ method, path, ifMatch string }{
			{http.MethodPost, "/api/compile", ""},
			{http.MethodPut, "/api/benchmarks/" + s.name + ".yaml", etagOf([]byte(s.yaml))},
		} {
			t.Run(s.name+"/"+req.method, func(t *testing.T) {
				r, elapsed, alloc := measureCall(t, srv, req.method, req.path, string(body), "If-Match", req.ifMatch)
				t.Logf("%d bytes: %d, %d bytes answered in %v, %.1f MB", len(s.yaml), r.status, len(r.body), elapsed, float64(alloc)/1e6)
				var res struct {
					Diagnostics diag.List `json:"diagnostics"`
				}
				if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &res) != nil {
					t.Fatalf("%d %.200s", r.status, r.body)
				}
				if !res.Diagnostics.Has(s.code) || len(res.Diagnostics) > 101 {
					t.Errorf("%d diagnostics, want %s among at most 101: %.300s", len(res.Diagnostics), s.code, r.body)
				}
				// The target is 200 ms (measured by the compiler's BenchmarkHardeningShapes);
				// a test on CI's loaded cores allows 3 s, which still fails every shape that
				// used to be quadratic in time (7 s and more); the memory bound fails the rest.
				if elapsed > 3*time.Second {
					t.Errorf("answered in %v, over 3 s", elapsed)
				}
				if alloc > 100e6 {
					t.Errorf("allocated %.1f MB, over 100 MB", float64(alloc)/1e6)
				}
			})
		}
	}
}

// measureCall makes the request, returning the time (the best of five tries on a busy
// machine) and the bytes allocated by the last.
func measureCall(t *testing.T, srv *httptest.Server, method, path, body string, header ...string) (r reply, elapsed time.Duration, alloc uint64) {
	t.Helper()
	for try := range 5 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		r = call(t, srv, method, path, body, header...)
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		alloc = after.TotalAlloc - before.TotalAlloc
		if try == 0 || took < elapsed {
			elapsed = took
		}
		if elapsed <= 100*time.Millisecond {
			break
		}
	}
	return r, elapsed, alloc
}
