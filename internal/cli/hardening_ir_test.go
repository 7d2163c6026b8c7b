package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHardeningStrictIRInput: `benchy run` of an IR JSON file that is not strict JSON (a
// duplicate key, invalid UTF-8, a lone surrogate escape) is refused before anything runs:
// encoding/json would keep the last duplicate or repair the bytes, and the run would carry
// the hash of an IR nobody wrote.
func TestHardeningStrictIRInput(t *testing.T) {
	dir := invoiceRun(t)
	code, irJSON, stderr := runBenchy(t, "compile", filepath.Join(dir, "benchmark.yaml"))
	if code != 0 {
		t.Fatal(stderr)
	}
	tests := []struct{ name, ir string }{
		{"a duplicate key", strings.Replace(irJSON, `"version":"1.0"`, `"version":"1.0","version":"1.0"`, 1)},
		{"invalid UTF-8", strings.Replace(irJSON, `"id":"`, "\"id\":\"\xff", 1)},
		{"a lone surrogate escape", strings.Replace(irJSON, `"id":"`, `"id":"\ud800`, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ir == irJSON {
				t.Fatal("the IR was not changed")
			}
			irPath := filepath.Join(dir, "bad.ir.json")
			if err := os.WriteFile(irPath, []byte(tt.ir), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "r.json")
			code, _, stderr := runBenchy(t, "run", "--no-store", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "-o", out, irPath)
			if code != 1 || !strings.Contains(stderr, "not strict JSON") {
				t.Errorf("exit %d, stderr %q; want 1 and a strict JSON refusal", code, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("the run wrote results")
			}
		})
	}
}

// TestHardeningRuntimeFileByAnyName: the runtime file given with --runtime under another
// name (or reached through a link to it) is never read as the dataset either.
func TestHardeningRuntimeFileByAnyName(t *testing.T) {
	dir := invoiceRun(t)
	rt, err := os.ReadFile(filepath.Join(dir, "benchy.runtime.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "benchy.runtime.yaml"))
	if err := os.WriteFile(filepath.Join(dir, "bindings.yaml"), rt, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bindings.yaml", filepath.Join(dir, "rows.jsonl")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"./bindings.yaml", "./rows.jsonl"} {
		bench := strings.Replace(string(src), "./data/invoices.jsonl", data, 1)
		if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(bench), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runBenchy(t, "run", "--no-store", "--runtime", filepath.Join(dir, "bindings.yaml"), "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "b.yaml"))
		if code != 1 || !strings.Contains(stderr, "data_not_found") || !strings.Contains(stderr, "runtime file") {
			t.Errorf("data %s: exit %d, stderr %q; want data_not_found naming the runtime file", data, code, stderr)
		}
	}
}

// TestResultFilesReadable: the result document and stream, written through temporary files
// and renamed, are readable like any file benchy writes (0644), not CreateTemp's 0600.
func TestResultFilesReadable(t *testing.T) {
	dir := invoiceRun(t)
	out := filepath.Join(dir, "r.json")
	if code, _, stderr := runBenchy(t, "run", "--no-store", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "-o", out, filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{out, filepath.Join(dir, "r.jsonl")} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", filepath.Base(p), info.Mode().Perm())
		}
	}
}
