package server

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
)

// invoiceScore is the invoice example's score: six valid examples, three fully right.
const invoiceScore = (3.0 + 4.0/9 + 8.0/9) / 10

// TestRunInvoice runs the paper's invoice example through the API against its command
// adapter: the score and counts of `benchy run` (internal/cli's end-to-end test), paged
// results, exports and the listing.
func TestRunInvoice(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml", "concurrency": 2}`)
	v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	if v.Status != api.Completed || v.Done != 10 || v.Total != 10 || v.Summary == nil {
		t.Fatalf("run: %s, %d/%d, %+v, %+v", v.Status, v.Done, v.Total, v.Summary, v.Error)
	}
	if s := *v.Summary; s.Examples != 10 || s.Valid != 6 || s.InvalidOutputs != 2 || s.ExecutionErrors != 2 {
		t.Errorf("summary %+v, want 10 examples: 6 valid, 2 invalid_output, 2 execution_error", s)
	}
	var rep struct {
		Score   float64 `json:"benchmark_score"`
		IRHash  string  `json:"ir_hash"`
		Binding string  `json:"binding"`
	}
	json.Unmarshal(v.Report, &rep)
	src, _ := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	_, hash, _ := compiler.CompileCanonical(src)
	if math.Abs(rep.Score-invoiceScore) > 1e-12 || rep.IRHash != hash || v.IRHash != hash || rep.Binding != "invoice-extractor-v7" || v.Binding != "invoice-extractor-v7" {
		t.Errorf("report: score %v (want %v), hash %s/%s (want %s), binding %q", rep.Score, invoiceScore, rep.IRHash, v.IRHash, hash, rep.Binding)
	}
	if v.Options.Concurrency != 2 || v.Benchmark != "benchmark.yaml" || len(v.IR) == 0 {
		t.Errorf("run record: options %+v, benchmark %q, IR %d bytes", v.Options, v.Benchmark, len(v.IR))
	}

	t.Run("benchmarks", func(t *testing.T) {
		var list []api.Benchmark
		decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
		i := slices.IndexFunc(list, func(b api.Benchmark) bool { return b.Path == "benchmark.yaml" })
		if i < 0 || list[i].LastScore == nil || math.Abs(*list[i].LastScore-invoiceScore) > 1e-12 || list[i].LastRun != id {
			t.Errorf("benchmarks: %+v", list)
		}
		j := slices.IndexFunc(list, func(b api.Benchmark) bool { return b.Path == "slow/benchmark.yaml" })
		if j < 0 || list[j].LastScore != nil {
			t.Errorf("a benchmark never run has a score: %+v", list)
		}
	})

	t.Run("list", func(t *testing.T) {
		bh := v.BenchmarkHash
		for query, want := range map[string]int{"": 1, "?benchmark=benchmark.yaml": 1, "?ir_hash=" + hash: 1, "?benchmark=other.yaml": 0, "?limit=1": 1,
			"?benchmark_hash=" + bh: 1, "?benchmark_hash=sha256:" + strings.Repeat("0", 64): 0, "?benchmark_hash=" + bh + "&dataset_digest=" + v.DatasetDigest: 1,
			"?dataset_digest=sha256:" + strings.Repeat("0", 64): 0, "?status=completed": 1, "?status=running": 0} {
			var list struct{ Runs []api.Run }
			decode(t, srv, "GET", "/api/runs"+query, "", http.StatusOK, &list)
			if len(list.Runs) != want || (want == 1 && (list.Runs[0].ID != id || len(list.Runs[0].IR) != 0)) {
				t.Errorf("GET /api/runs%s: %d runs, want %d", query, len(list.Runs), want)
			}
		}
		if r := call(t, srv, "GET", "/api/runs?limit=0", ""); r.status != http.StatusBadRequest {
			t.Errorf("limit=0: %d", r.status)
		}
		if r := call(t, srv, "GET", "/api/runs?status=done", ""); r.status != http.StatusBadRequest {
			t.Errorf("status=done: %d", r.status)
		}
		// A malformed hash is a 400, as the leaderboard answers it, not an empty list; so is
		// a filter given twice (the list of one, a page naming the other).
		for _, q := range []string{"benchmark_hash=xyz", "benchmark_hash=sha256:00", "dataset_digest=sha256:00", "dataset_digest=" + strings.ToUpper(v.DatasetDigest),
			"ir_hash=bogus", "ir_hash=" + strings.ToUpper(hash), "status=completed&status=running", "benchmark=benchmark.yaml&benchmark=other.yaml",
			"ir_hash=" + hash + "&ir_hash=" + hash, "benchmark_hash=" + bh + "&benchmark_hash=" + bh, "dataset_digest=" + v.DatasetDigest + "&dataset_digest=" + v.DatasetDigest} {
			if r := call(t, srv, "GET", "/api/runs?"+q, ""); r.status != http.StatusBadRequest || errorCode(t, r) != api.BadRequest {
				t.Errorf("%s: %d %s, want 400 bad_request", q, r.status, r.body)
			}
		}
		if bh == "" || v.DatasetDigest == "" {
			t.Errorf("run without identities: benchmark_hash %q, dataset_digest %q", bh, v.DatasetDigest)
		}
	})

	t.Run("pages", func(t *testing.T) {
		all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		for _, limit := range []int{1, 3, 10, 1000} {
			if got := results(t, srv, id, "", limit); !slices.Equal(got, all) {
				t.Errorf("limit %d: %v", limit, got)
			}
		}
		for status, want := range map[string][]int{"valid": {0, 1, 2, 3, 4, 9}, "invalid_output": {5, 6}, "execution_error": {7, 8}} {
			if got := results(t, srv, id, "status="+status+"&", 4); !slices.Equal(got, want) {
				t.Errorf("status %s: %v, want %v", status, got, want)
			}
		}
		var p struct {
			Results []json.RawMessage
			Next    int
		}
		decode(t, srv, "GET", "/api/runs/"+id+"/results", "", http.StatusOK, &p)
		if len(p.Results) != 10 || p.Next != -1 || !strings.Contains(string(p.Results[0]), `"field_scores"`) {
			t.Errorf("default page: %d results, next %d", len(p.Results), p.Next)
		}
		for _, q := range []string{"status=bogus", "limit=0", "after=-2", "after=x"} {
			if r := call(t, srv, "GET", "/api/runs/"+id+"/results?"+q, ""); r.status != http.StatusBadRequest {
				t.Errorf("%s: %d %s", q, r.status, r.body)
			}
		}
		if r := call(t, srv, "GET", "/api/runs/NOPE/results", ""); r.status != http.StatusNotFound {
			t.Errorf("unknown run: %d", r.status)
		}
	})

	t.Run("export", func(t *testing.T) {
		ct, body := export(t, srv, id, "json")
		var doc struct {
			Score   float64 `json:"benchmark_score"`
			Results []struct{ Index int }
		}
		if err := json.Unmarshal([]byte(body), &doc); err != nil || ct != "application/json" || len(doc.Results) != 10 || math.Abs(doc.Score-invoiceScore) > 1e-12 {
			t.Errorf("json: %s, %v, %d results, score %v", ct, err, len(doc.Results), doc.Score)
		}
		ct, body = export(t, srv, id, "jsonl")
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		if ct != "application/x-ndjson" || len(lines) != 10 || !json.Valid([]byte(lines[9])) {
			t.Errorf("jsonl: %s, %d lines", ct, len(lines))
		}
		ct, body = export(t, srv, id, "csv")
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || !strings.HasPrefix(ct, "text/csv") || len(rows) != 11 || rows[0][0] != "index" || rows[8][4] != "adapter_error" {
			t.Errorf("csv: %s, %v, %d rows", ct, err, len(rows))
		}
		if r := call(t, srv, "GET", "/api/runs/"+id+"/results?format=xml", ""); r.status != http.StatusBadRequest {
			t.Errorf("format=xml: %d", r.status)
		}
		if r := call(t, srv, "GET", "/api/runs/"+id+"/results?format=csv&after=3", ""); r.status != http.StatusBadRequest {
			t.Errorf("format with after: %d", r.status)
		}
		if _, body := export(t, srv, id, "csv&status=execution_error"); strings.Count(body, "\n") != 1+2 || !strings.Contains(body, "adapter_error") {
			t.Errorf("csv of the execution errors (the filter honoured):\n%s", body)
		}
		if r := call(t, srv, "GET", "/api/runs/NOPE/results?format=jsonl", ""); r.status != http.StatusNotFound || !strings.Contains(r.body, "not_found") {
			t.Errorf("unknown run: %d %s", r.status, r.body)
		}
	})

	t.Run("finished", func(t *testing.T) {
		if r := call(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}"); r.status != http.StatusConflict {
			t.Errorf("cancel a completed run: %d %s", r.status, r.body)
		}
		if r := call(t, srv, "POST", "/api/runs/"+id+"/resume", "{}"); r.status != http.StatusConflict {
			t.Errorf("resume a completed run: %d %s", r.status, r.body)
		}
		if r := call(t, srv, "GET", "/api/runs/NOPE", ""); r.status != http.StatusNotFound {
			t.Errorf("unknown run: %d", r.status)
		}
	})
}

// TestRunRefused: a run that cannot start is refused before anything is recorded.
func TestRunRefused(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	tests := []struct {
		body   string
		status int
		want   string
	}{
		{`{"benchmark": "unbound/benchmark.yaml"}`, http.StatusUnprocessableEntity, `"code":"missing_binding"`},
		{`{"benchmark": "broken.yaml"}`, http.StatusBadRequest, `"code":"invalid_benchmark"`},
		{`{"benchmark": "broken.yaml"}`, http.StatusBadRequest, `"code":"unsupported_version","path":["version"]`},
		{`{"benchmark": "none.yaml"}`, http.StatusNotFound, `"not_found"`},
		{`{"benchmark": "../benchmark.yaml"}`, http.StatusBadRequest, `"bad_path"`},
		{`{"benchmark": "/etc/passwd.yaml"}`, http.StatusBadRequest, `"bad_path"`},
		{`{"benchmark": "data/invoices.jsonl"}`, http.StatusBadRequest, `"bad_path"`},
		{`{"benchmark": "benchmark.yaml", "limit": -1}`, http.StatusBadRequest, `"bad_request"`},
		{`{"benchmark": "benchmark.yaml", "concurrency": 100000}`, http.StatusBadRequest, `"bad_request"`},
		{`{"benchmark": "benchmark.yaml", "model": "x"}`, http.StatusBadRequest, `"bad_request"`},
	}
	for _, tt := range tests {
		r := call(t, srv, "POST", "/api/runs", tt.body)
		if r.status != tt.status || !strings.Contains(r.body, tt.want) {
			t.Errorf("POST %s: %d %s, want %d %s", tt.body, r.status, r.body, tt.status, tt.want)
		}
	}
	os.Remove(filepath.Join(dir, RuntimeFile))
	if r := call(t, srv, "POST", "/api/runs", `{"benchmark": "benchmark.yaml"}`); r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, `"code":"missing_binding"`) {
		t.Errorf("no runtime file: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/runs", ""); r.body != `{"runs":[]}`+"\n" {
		t.Errorf("a refused run was recorded: %s", r.body)
	}
}

// TestRunsNeedJSONFromSameOrigin: starting, cancelling and resuming runs are state changes.
func TestRunsNeedJSONFromSameOrigin(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	for _, p := range []string{"/api/runs", "/api/runs/X/cancel", "/api/runs/X/resume"} {
		if r := call(t, srv, "POST", p, "{}", "Content-Type", "text/plain"); r.status != http.StatusUnsupportedMediaType {
			t.Errorf("%s as text/plain: %d", p, r.status)
		}
		if r := call(t, srv, "POST", p, "{}", "Origin", "http://evil.example"); r.status != http.StatusForbidden {
			t.Errorf("%s from another origin: %d", p, r.status)
		}
	}
}

// TestCancelAndResume cancels a run halfway, resumes it, and checks that only the missing
// examples went to the AI-system and that the results equal a clean run's.
func TestCancelAndResume(t *testing.T) {
	const held = 5 // the slow adapter answers examples 0-4, and holds the rest until the gate opens
	dir := runWorkspace(t, slow{gate: true, from: held})
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 2}`)
	waitRun(t, srv, id, "5 examples done", func(v api.Run) bool { return v.Done == held })
	if v := getRun(t, srv, id); v.Status != api.Running || v.Total != slowExamples || v.Summary == nil || v.Summary.Examples != held || v.Rate == nil {
		t.Fatalf("running: %s %d/%d %+v", v.Status, v.Done, v.Total, v.Summary)
	}
	decode(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}", http.StatusAccepted, nil)
	v := waitRun(t, srv, id, "cancelled", func(v api.Run) bool { return v.FinishedAt != nil })
	if v.Status != api.Cancelled || v.Done != held {
		t.Fatalf("cancelled: %s, %d done", v.Status, v.Done)
	}
	if got := results(t, srv, id, "", 100); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("stored after cancel: %v", got)
	}
	if r := call(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}"); r.status != http.StatusConflict || !strings.Contains(r.body, "is cancelled") {
		t.Errorf("cancel twice: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/runs/"+id+"/results?format=json", ""); r.status != http.StatusConflict {
		t.Errorf("json export of a cancelled run: %d %s", r.status, r.body)
	}

	before := len(calls(t, dir))
	openGate(t, dir)
	decode(t, srv, "POST", "/api/runs/"+id+"/resume", "{}", http.StatusAccepted, nil)
	v = waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	if v.Status != api.Completed || v.Done != slowExamples || v.Total != slowExamples {
		t.Fatalf("resumed: %s %d/%d %+v", v.Status, v.Done, v.Total, v.Error)
	}
	asked := slices.Sorted(slices.Values(calls(t, dir)[before:]))
	if want := []int{5, 6, 7, 8, 9, 10, 11}; !slices.Equal(asked, want) {
		t.Errorf("the resumed run asked the AI-system for %v, want only the missing %v", asked, want)
	}

	clean := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 3}`)
	c := waitRun(t, srv, clean, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	if c.Status != api.Completed {
		t.Fatalf("clean run: %s", c.Status)
	}
	_, resumed := export(t, srv, id, "jsonl")
	_, want := export(t, srv, clean, "jsonl")
	if resumed != want {
		t.Errorf("resumed results differ from a clean run's:\n%s\nwant\n%s", resumed, want)
	}
	if *v.Summary != *c.Summary || v.Summary.ExecutionErrors != 3 || v.Summary.Valid != 9 {
		t.Errorf("summary %+v, clean %+v", *v.Summary, *c.Summary)
	}
	score := func(v api.Run) float64 {
		var rep struct {
			Score float64 `json:"benchmark_score"`
		}
		json.Unmarshal(v.Report, &rep)
		return rep.Score
	}
	if score(v) != score(c) || score(v) == 0 {
		t.Errorf("score %v, clean %v", score(v), score(c))
	}
}

// TestRunAborted: a dataset the engine refuses ends the run aborted, with the diagnostic.
func TestRunAborted(t *testing.T) {
	dir := runWorkspace(t, slow{})
	os.WriteFile(filepath.Join(dir, "slow", "data.jsonl"), []byte(`{"input": {"text": "a"}, "expected": {"number": "a", "total": 1}}`+"\n"+`{"input": {}}`+"\n"), 0o644)
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	if v.Status != api.Aborted || v.Error == nil || v.Error.Line != 2 || v.Error.File != "slow/data.jsonl" {
		t.Errorf("aborted: %s %+v", v.Status, v.Error)
	}
	if got := calls(t, dir); len(got) != 0 {
		t.Errorf("the AI-system was asked for %v before the dataset was checked", got)
	}
	if r := call(t, srv, "POST", "/api/runs/"+id+"/resume", "{}"); r.status != http.StatusConflict {
		t.Errorf("resume an aborted run: %d", r.status)
	}
}
