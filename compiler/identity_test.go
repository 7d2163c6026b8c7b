package compiler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// TestLanguageIDOneBenchmark: the language-id example's two files differ only in their
// AI-system (langdetect, the baseline), so they are one benchmark (one benchmark hash) taken
// by two systems (two IR hashes) — what ranking systems on one benchmark rests on.
func TestLanguageIDOneBenchmark(t *testing.T) {
	var bench, whole []string
	for _, name := range []string{"benchmark.yaml", "baseline.yaml"} {
		src, err := os.ReadFile(filepath.Join("..", "assets", "examples", "language-id", name))
		if err != nil {
			t.Fatal(err)
		}
		canonical, _, ds := CompileCanonical(src)
		if len(ds) > 0 {
			t.Fatalf("%s: %v", name, ds)
		}
		bh, err := ir.BenchmarkHash(canonical)
		if err != nil {
			t.Fatal(err)
		}
		bench, whole = append(bench, bh), append(whole, ir.Hash(canonical))
	}
	if bench[0] != bench[1] || whole[0] == whole[1] {
		t.Errorf("benchmark hashes %v (want equal), IR hashes %v (want different)", bench, whole)
	}
}
