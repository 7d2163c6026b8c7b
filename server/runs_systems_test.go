package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// systemsWorkspace is runWorkspace with a second binding of the slow adapter, slow-too,
// which answers alike through a command of its own: another AI-system.
func systemsWorkspace(t *testing.T, cfg slow) string {
	t.Helper()
	dir := runWorkspace(t, cfg)
	_, slowBin := adapterBinaries(t)
	rt := filepath.Join(dir, RuntimeFile)
	text, err := os.ReadFile(rt)
	if err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf("  slow-too:\n    command: [%q, -log, %q]\n    timeout: 60s\n", slowBin, filepath.Join(dir, "calls-too.log"))
	if err := os.WriteFile(rt, append(text, extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStartRunSystems: POST /api/runs with systems queues one run per system, in their
// order, and answers every id; each run is of the same benchmark_hash, its own ir_hash and
// system, and they take the same dataset.
func TestStartRunSystems(t *testing.T) {
	dir := systemsWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	var started api.Started
	decode(t, srv, "POST", "/api/runs", `{"benchmark": "slow/benchmark.yaml", "systems": [
		{"system": "slow-too"}, {"own": true}]}`, http.StatusAccepted, &started)
	if len(started.IDs) != 2 || started.ID != started.IDs[0] {
		t.Fatalf("started %+v, want two ids, the first as id", started)
	}
	// A system file naming slow-too is the same system: in a request of its own (one request
	// naming it twice is refused: TestStartRunSystemsRefused).
	var again api.Started
	decode(t, srv, "POST", "/api/runs", `{"benchmark": "slow/benchmark.yaml", "systems": [
		{"yaml": "ai-system:\n  type: external\n  id: slow-too\n"}]}`, http.StatusAccepted, &again)
	started.IDs = append(started.IDs, again.IDs...)
	var runs []api.Run
	for _, id := range started.IDs {
		runs = append(runs, waitStatus(t, srv, id, store.Completed))
	}
	for i, want := range []string{"slow-too", "slow-system", "slow-too"} {
		r := runs[i]
		if r.System == nil || r.System.Label != want || r.Binding != want || !strings.Contains(string(r.AISystem), `"id":"`+want+`"`) {
			t.Errorf("run %d: system %+v binding %s ai_system %s, want %s", i, r.System, r.Binding, r.AISystem, want)
		}
		if r.BenchmarkHash == "" || r.BenchmarkHash != runs[0].BenchmarkHash || r.DatasetDigest == "" || r.DatasetDigest != runs[0].DatasetDigest {
			t.Errorf("run %d: benchmark_hash %s dataset_digest %s, run 0's %s %s", i, r.BenchmarkHash, r.DatasetDigest, runs[0].BenchmarkHash, runs[0].DatasetDigest)
		}
	}
	if runs[0].IRHash == runs[1].IRHash || runs[0].IRHash != runs[2].IRHash {
		t.Errorf("ir_hash %s %s %s: the file's own system differs, the same system twice is one IR", runs[0].IRHash, runs[1].IRHash, runs[2].IRHash)
	}
}

// TestStartRunSystemsRefused: one system that cannot run refuses the whole request, saying
// which (0-based) and why, with the codes a single run has; nothing is stored or called.
func TestStartRunSystemsRefused(t *testing.T) {
	dir := systemsWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	items := func(items ...string) string {
		return `{"benchmark": "slow/benchmark.yaml", "systems": [` + strings.Join(items, ", ") + `]}`
	}
	many := make([]string, maxSystems+1)
	for i := range many {
		many[i] = `{"own": true}`
	}
	for _, tc := range []struct {
		name, body string
		status     int
		code       api.Code
		says       string
	}{
		{"an unbound id", items(`{"own": true}`, `{"system": "slow-tooo"}`), http.StatusUnprocessableEntity, "missing_binding",
			`systems[1] (slow-tooo): ` + RuntimeFile + `: the runtime file has no binding for the external AI-system "slow-tooo" (did you mean "slow-too"?)`},
		{"an undefined provider", items(`{"model": "openai/gpt-x"}`), http.StatusUnprocessableEntity, "missing_binding", `systems[0] (openai/gpt-x): `},
		{"a model that is not PROVIDER/MODEL", items(`{"own": true}`, `{"model": "gpt-x"}`), http.StatusBadRequest, api.BadRequest,
			`systems[1]: model "gpt-x" is not PROVIDER/MODEL`},
		{"two forms in one item", items(`{"system": "slow-too", "own": true}`), http.StatusBadRequest, api.BadRequest, "systems[0]: a system is exactly one of"},
		{"no form", items(`{}`), http.StatusBadRequest, api.BadRequest, "systems[0]: a system is exactly one of"},
		{"a system file that does not compile", items(`{"own": true}`, `{"yaml": "ai-system:\n  type: externl\n"}`), http.StatusBadRequest, api.InvalidBenchmark,
			"systems[1]: the system file has 1 problem(s)"},
		{"too many systems", items(many...), http.StatusBadRequest, api.BadRequest, "17 systems: a request runs at most 16"},
		{"an id too long", items(`{"system": "` + strings.Repeat("x", maxSystemName+1) + `"}`), http.StatusBadRequest, api.BadRequest, "systems[0]: a system's id or model is at most"},
		{"a system file too large", items(`{"yaml": "#` + strings.Repeat("x", maxSystemYAML) + `"}`), http.StatusBadRequest, api.BadRequest, "as a benchmark file is"},
		{"a benchmark that does not compile", `{"benchmark": "broken.yaml", "systems": [{"own": true}]}`, http.StatusBadRequest, api.InvalidBenchmark, "broken.yaml has"},
		{"no systems", `{"benchmark": "slow/benchmark.yaml", "systems": []}`, http.StatusBadRequest, api.BadRequest,
			"systems is empty; leave it out to run the file's own AI-system"},
		{"one system twice", items(`{"own": true}`, `{"system": "slow-too"}`, `{"own": true}`), http.StatusBadRequest, api.BadRequest,
			"systems[0] and systems[2] are the same AI-system (slow-system)"},
		{"one system twice in two forms", items(`{"system": "slow-too"}`, `{"yaml": "ai-system:\n  type: external\n  id: slow-too\n"}`),
			http.StatusBadRequest, api.BadRequest, "systems[0] and systems[1] are the same AI-system (slow-too)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, srv, "POST", "/api/runs", tc.body)
			var got api.InvalidBenchmarkError
			if err := json.Unmarshal([]byte(r.body), &got); err != nil {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if r.status != tc.status || got.Error.Error.Code != tc.code || !strings.Contains(got.Error.Error.Message, tc.says) {
				t.Errorf("%d %s, want %d %s saying %q", r.status, r.body, tc.status, tc.code, tc.says)
			}
			if tc.name == "a system file that does not compile" {
				if len(got.Diagnostics) != 1 || got.Diagnostics[0].Line != 2 || got.Diagnostics[0].Column != 9 || got.Diagnostics[0].File != "systems[1].yaml" {
					t.Errorf("diagnostics %+v, want one at systems[1].yaml:2:9", got.Diagnostics)
				}
			}
		})
	}
	var list api.Runs
	decode(t, srv, "GET", "/api/runs", "", http.StatusOK, &list)
	if len(list.Runs) != 0 || len(calls(t, dir)) != 0 {
		t.Errorf("%d runs stored, %d calls made by refused requests", len(list.Runs), len(calls(t, dir)))
	}
}

// TestStartRunSystemsQueue: the systems of a request are queued all or none: a request
// the queue cannot take whole is refused with 429 queue_full, and queues none of them,
// while a request that fits is still taken.
func TestStartRunSystemsQueue(t *testing.T) {
	dir := systemsWorkspace(t, slow{gate: true}) // the running run holds its answers
	_, srv := serve(t, Config{Workspace: dir, MaxRuns: 1})
	two := `{"benchmark": "slow/benchmark.yaml", "systems": [{"own": true}, {"system": "slow-too"}]}`
	var started api.Started
	for range maxSystems - 1 { // 1 running, 29 queued
		decode(t, srv, "POST", "/api/runs", two, http.StatusAccepted, &started)
	}
	decode(t, srv, "POST", "/api/runs", two, http.StatusAccepted, &started) // 31 queued
	r := call(t, srv, "POST", "/api/runs", two)
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, string(api.QueueFull)) {
		t.Errorf("a request of 2 with room for 1: %d %s, want 429 queue_full", r.status, r.body)
	}
	var list api.Runs
	decode(t, srv, "GET", "/api/runs?limit=100", "", http.StatusOK, &list)
	if len(list.Runs) != 2*maxSystems {
		t.Errorf("%d runs stored, want the %d of the requests taken", len(list.Runs), 2*maxSystems)
	}
	startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "systems": [{"own": true}]}`) // the room left
	openGate(t, dir)
}
