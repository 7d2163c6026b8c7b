package compiler

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// generated returns an extract benchmark with n leaf output fields, ten to a nested object.
func generated(n int) []byte {
	var out, weights strings.Builder
	for i := 0; i < n; i += 10 {
		fmt.Fprintf(&out, "    group_%d:\n", i/10)
		fmt.Fprintf(&weights, "    group_%d:\n", i/10)
		for j := i; j < min(i+10, n); j++ {
			fmt.Fprintf(&out, "      field_%d: string\n", j)
			fmt.Fprintf(&weights, "      field_%d: %d\n", j, j%5+1)
		}
	}
	return []byte(`version: "1.0"
ontology_version: "1.0"
benchmark:
  task: extract
  domain: finance
  language: en
program:
  input:
    document: document
  output:
` + out.String() + `scoring:
  weights:
` + weights.String() + `  aggregator: weighted_mean
data:
  path: data/exam.jsonl
ai-system:
  type: external
  id: extractor
`)
}

func TestGeneratedCompiles(t *testing.T) {
	for _, n := range []int{1, 10, 95, 1000} {
		b, ds := Compile(generated(n))
		if len(ds) > 0 {
			t.Fatalf("%d fields: %v", n, ds[0])
		}
		if got := len(b.Scoring.Dimensions); got != n {
			t.Errorf("%d fields: %d dimensions", n, got)
		}
	}
}

// BenchmarkCompileInvoice: the paper's invoice example, YAML to canonical bytes and hash.
// Target: <= 100 µs natively.
func BenchmarkCompileInvoice(b *testing.B) {
	src, err := os.ReadFile("testdata/compile/ok_paper_invoice.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, ds := CompileCanonical(src); len(ds) > 0 {
			b.Fatal(ds)
		}
	}
}

// BenchmarkCompileFields: generated benchmarks of 100, 1,000 and 10,000 leaf fields.
// Target: <= 10 ms for 1,000 natively, growing linearly; <= 10x native under WASM.
func BenchmarkCompileFields(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		src := generated(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, _, ds := CompileCanonical(src); len(ds) > 0 {
					b.Fatal(ds)
				}
			}
		})
	}
}
