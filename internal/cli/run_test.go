package cli_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"

	"github.com/benchy-eval/benchy/internal/cli"
)

// invoiceRun copies the paper's invoice example with its stand-in command adapter
// (engine/testdata) into a temporary directory and builds the adapter there.
func invoiceRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	testkit.CopyTree(t, "../../engine/testdata/invoice", dir)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "invoice-adapter"), "../../engine/testdata/invoice-adapter")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the adapter: %v\n%s", err, out)
	}
	return dir
}

type resultDoc struct {
	Version        string  `json:"version"`
	BenchmarkScore float64 `json:"benchmark_score"`
	Summary        struct {
		Examples        int `json:"examples"`
		Valid           int `json:"valid"`
		InvalidOutputs  int `json:"invalid_outputs"`
		ExecutionErrors int `json:"execution_errors"`
	} `json:"summary"`
	IRHash     string `json:"ir_hash"`
	Binding    string `json:"binding"`
	Confidence struct {
		Low, High float64
		Method    string
	} `json:"confidence_interval"`
	Results []struct {
		Index  int      `json:"index"`
		Status string   `json:"status"`
		Score  *float64 `json:"score"`
		Error  *struct {
			Code string   `json:"code"`
			Path []string `json:"path"`
		} `json:"error"`
	} `json:"results"`
}

func runBenchy(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestRunInvoiceEndToEnd runs the paper's invoice example through `benchy run` against a
// command adapter, and checks the score and every example's status against what the data
// was written to produce (see engine/testdata/invoice).
func TestRunInvoiceEndToEnd(t *testing.T) {
	dir := invoiceRun(t)
	bench := filepath.Join(dir, "benchmark.yaml")
	var docs [][]byte
	for _, conc := range []string{"1", "4"} {
		out := filepath.Join(dir, "results-"+conc+".json")
		code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "-o", out, "--concurrency", conc, bench)
		if code != 0 {
			t.Fatalf("concurrency %s: exit %d\n%s", conc, code, stderr)
		}
		if !strings.Contains(stderr, "score 0.4333") || !strings.Contains(stderr, "valid 6 · invalid_output 2 · execution_error 2") {
			t.Errorf("summary:\n%s", stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var doc resultDoc
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("results are not JSON: %v", err)
		}
		want := 3.0 + 4.0/9 + 8.0/9
		if math.Abs(doc.BenchmarkScore-want/10) > 1e-12 {
			t.Errorf("benchmark_score %v, want %v", doc.BenchmarkScore, want/10)
		}
		if doc.Summary.Examples != 10 || doc.Summary.Valid != 6 || doc.Summary.InvalidOutputs != 2 || doc.Summary.ExecutionErrors != 2 {
			t.Errorf("summary %+v", doc.Summary)
		}
		if !strings.HasPrefix(doc.IRHash, "sha256:") || doc.Binding != "invoice-extractor-v7" || doc.Confidence.Method == "" {
			t.Errorf("ir_hash %q binding %q interval %+v", doc.IRHash, doc.Binding, doc.Confidence)
		}
		wantStatus := []string{"valid", "valid", "valid", "valid", "valid", "invalid_output", "invalid_output", "execution_error", "execution_error", "valid"}
		wantCode := []string{"", "", "", "", "", "invalid_value", "missing_field", "adapter_error", "adapter_error", ""}
		for i, r := range doc.Results {
			code := ""
			if r.Error != nil {
				code = r.Error.Code
			}
			if r.Index != i || r.Status != wantStatus[i] || code != wantCode[i] {
				t.Errorf("example %d: %s %s, want %s %s", r.Index, r.Status, code, wantStatus[i], wantCode[i])
			}
		}
		results, _ := os.ReadFile(strings.TrimSuffix(out, ".json") + ".jsonl")
		docs = append(docs, results)
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Errorf("results differ between concurrency 1 and 4")
	}
}

// TestRunIRFile runs the compiled IR instead of the YAML: the same hash and score.
func TestRunIRFile(t *testing.T) {
	dir := invoiceRun(t)
	code, irJSON, stderr := runBenchy(t, "compile", filepath.Join(dir, "benchmark.yaml"))
	if code != 0 {
		t.Fatal(stderr)
	}
	irPath := filepath.Join(dir, "benchmark.ir.json")
	os.WriteFile(irPath, []byte(irJSON), 0o644)
	_, hash, _ := runBenchy(t, "compile", "--hash", filepath.Join(dir, "benchmark.yaml"))
	out := filepath.Join(dir, "r.json")
	if code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "-o", out, irPath); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc resultDoc
	data, _ := os.ReadFile(out)
	json.Unmarshal(data, &doc)
	if doc.IRHash != strings.TrimSpace(hash) || doc.Summary.Examples != 10 {
		t.Errorf("ir_hash %s (want %s), %d examples", doc.IRHash, hash, doc.Summary.Examples)
	}
}

// TestRunFailures: the run refuses to start without a binding, and aborts on a bad dataset,
// with the diagnostic code on stderr and exit 1; usage errors exit 2.
func TestRunFailures(t *testing.T) {
	dir := invoiceRun(t)
	bench := filepath.Join(dir, "benchmark.yaml")
	empty := filepath.Join(dir, "empty.runtime.yaml")
	os.WriteFile(empty, []byte("bindings: {}\n"), 0o644)
	if code, _, stderr := runBenchy(t, "run", "--runtime", empty, "-o", filepath.Join(dir, "x.json"), bench); code != 1 || !strings.Contains(stderr, "missing_binding") {
		t.Errorf("no binding: exit %d\n%s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "data", "invoices.jsonl"), []byte(`{"input": {"image": "../images/none.png"}, "expected": {}}`+"\n"), 0o644)
	if code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "-o", filepath.Join(dir, "x.json"), bench); code != 1 || !strings.Contains(stderr, "artifact_not_found") {
		t.Errorf("bad dataset: exit %d\n%s", code, stderr)
	}
	if code, _, _ := runBenchy(t, "run", "--concurrency", "0", bench); code != 2 {
		t.Errorf("--concurrency 0: exit %d, want 2", code)
	}
	if code, _, _ := runBenchy(t, "run"); code != 2 {
		t.Errorf("no benchmark: exit %d, want 2", code)
	}
}
