package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
)

// TestStartRunSystemParametersBounded: a model AI-system given as yaml to POST /api/runs,
// or written in the benchmark file, with a parameter of half a MiB is refused by the compiler's
// bound (too_large at the value, naming the bound) before anything is stored: each such
// run copied the megabyte into its IR, its system and its report, and 70 of them made
// GET /api/runs a 293 MB answer. The provider is bound, so only the bound refuses it.
func TestStartRunSystemParametersBounded(t *testing.T) {
	dir := runWorkspace(t, slow{})
	rt := filepath.Join(dir, RuntimeFile)
	text, err := os.ReadFile(rt)
	if err != nil {
		t.Fatal(err)
	}
	text = append(text, "providers:\n  local: {kind: openai, base_url: 'http://127.0.0.1:9/v1', max_retries: 0}\n"...)
	big := strings.Repeat("x", 1<<19)
	bench, err := os.ReadFile(filepath.Join(dir, "slow", "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	own, _, _ := strings.Cut(string(bench), "ai-system:")
	own += "ai-system:\n  type: model\n  provider: local\n  model: m\n  parameters: {p: \"" + big + "\"}\n"
	for name, body := range map[string]string{RuntimeFile: string(text), "slow/big.yaml": own} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, srv := serve(t, Config{Workspace: dir})
	yaml, _ := json.Marshal("ai-system:\n  type: model\n  provider: local\n  model: m\n  parameters:\n    p: \"" + big + "\"\n")
	for _, tc := range []struct{ name, body, file string }{
		{"a system's yaml", `{"benchmark": "slow/benchmark.yaml", "systems": [{"yaml": ` + string(yaml) + `}]}`, "systems[0].yaml"},
		{"the benchmark's own system", `{"benchmark": "slow/big.yaml"}`, "slow/big.yaml"},
	} {
		r := call(t, srv, "POST", "/api/runs", tc.body)
		var got api.InvalidBenchmarkError
		if err := json.Unmarshal([]byte(r.body), &got); err != nil {
			t.Fatalf("%s: %d %.300s", tc.name, r.status, r.body)
		}
		if r.status != http.StatusBadRequest || got.Error.Error.Code != api.InvalidBenchmark || len(got.Diagnostics) != 1 ||
			got.Diagnostics[0].Code != string(diag.TooLarge) || !strings.Contains(got.Diagnostics[0].Message, "at most 4096") ||
			!strings.HasSuffix(got.Diagnostics[0].File, tc.file) || len(r.body) > 4096 {
			t.Errorf("%s: %d %.600s, want 400 invalid_benchmark with one too_large in %s", tc.name, r.status, r.body, tc.file)
		}
	}
	var list api.Runs
	decode(t, srv, "GET", "/api/runs", "", http.StatusOK, &list)
	if len(list.Runs) != 0 {
		t.Errorf("%d runs stored by refused requests", len(list.Runs))
	}
}
