package compiler

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// TestVerifyIRAcceptsEveryGoldenIR: every IR the compiler makes passes VerifyIR, and
// yamlOf writes it back as YAML that compiles to the same bytes.
func TestVerifyIRAcceptsEveryGoldenIR(t *testing.T) {
	n := 0
	for _, c := range goldenCases(t) {
		src, _ := os.ReadFile(c.yamlPath)
		b, ds := Compile(src)
		if len(ds) > 0 {
			continue
		}
		n++
		if vs := VerifyIR(b); len(vs) > 0 {
			t.Errorf("%s: %v\n%s", c.name, vs, yamlOf(b))
		}
	}
	if n < 10 {
		t.Errorf("only %d IRs checked", n)
	}
}

// TestVerifyIRRejectsEditedIRs: edits that keep the IR JSON-Schema-valid but break the
// language are caught before a run.
func TestVerifyIRRejectsEditedIRs(t *testing.T) {
	src, _ := os.ReadFile("testdata/compile/ok_paper_nested_supplier.yaml")
	edits := map[string]func(b *ir.Benchmark){
		"a dimension through a leaf": func(b *ir.Benchmark) {
			b.Scoring.Dimensions = append(b.Scoring.Dimensions, ir.Dimension{Path: []string{"total", "x"}, Type: "string", Weight: 1})
		},
		"all weights zero": func(b *ir.Benchmark) {
			for i := range b.Scoring.Dimensions {
				b.Scoring.Dimensions[i].Weight = 0
			}
		},
		"a dimension for no field": func(b *ir.Benchmark) { b.Scoring.Dimensions[0].Path = []string{"nope"} },
		"a dimension missing":      func(b *ir.Benchmark) { b.Scoring.Dimensions = b.Scoring.Dimensions[1:] },
		"dimensions reordered": func(b *ir.Benchmark) {
			d := b.Scoring.Dimensions
			d[0], d[1] = d[1], d[0]
		},
		"a wrong dimension type": func(b *ir.Benchmark) { b.Scoring.Dimensions[0].Type = "int" },
		"classify with a string": func(b *ir.Benchmark) { b.Benchmark.Task = "classify" },
		"duplicate field names": func(b *ir.Benchmark) {
			b.Program.Input.Fields = append(b.Program.Input.Fields, b.Program.Input.Fields[0])
		},
		"an absolute data path": func(b *ir.Benchmark) { b.Data.Path = "/etc/data.jsonl" },
		"another evaluator":     func(b *ir.Benchmark) { b.Scoring.Evaluator = "fuzzy" },
	}
	for name, edit := range edits {
		b, _ := Compile(src)
		edit(b)
		if ds := VerifyIR(b); len(ds) == 0 {
			t.Errorf("%s: accepted\n%s", name, yamlOf(b))
		} else if strings.TrimSpace(ds[0].Message) == "" {
			t.Errorf("%s: no message", name)
		}
	}
}

// TestHardeningVerifyIR (issue 11, finding 3): an IR handed to benchy run costs linear
// time too. One nested 10,000 deep (as deep as JSON readers go) is refused as too_deep
// before it is written as YAML (which would be 100 MB); one of 8,000 objects verifies
// without comparing every dimension with every object (writeWeights was quadratic).
func TestHardeningVerifyIR(t *testing.T) {
	src, _ := os.ReadFile("testdata/compile/ok_model_minimal.yaml")
	deep, ds := Compile(src)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	leaf := ir.Field{Name: "x", Type: "string"}
	path := []string{"x"}
	for i := range 10_000 {
		leaf = ir.Field{Name: fmt.Sprintf("o%d", i), Type: ir.TypeObject, Fields: []ir.Field{leaf}}
		path = append(path, leaf.Name)
	}
	slices.Reverse(path)
	deep.Program.Output.Fields = []ir.Field{leaf}
	deep.Scoring.Dimensions = []ir.Dimension{{Path: path, Type: "string", Weight: 1}}
	start := time.Now()
	if ds := VerifyIR(deep); len(ds) != 1 || ds[0].Code != diag.TooDeep || time.Since(start) > time.Second {
		t.Errorf("an IR nested 10,000 deep: %v in %v, want too_deep at once", ds, time.Since(start))
	}

	var out, weights strings.Builder
	for i := range 8_000 {
		fmt.Fprintf(&out, "    g%d:\n      f: string\n", i)
		fmt.Fprintf(&weights, "    g%d:\n      f: 1\n", i)
	}
	wide, ds := Compile([]byte(strings.Replace(strings.Replace(string(src), "    person: string\n", out.String(), 1), "    person: 1\n", weights.String(), 1)))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	start = time.Now()
	if ds := VerifyIR(wide); len(ds) > 0 || time.Since(start) > 5*time.Second { // 0.2 s alone, 1.2 s on CI's loaded cores
		t.Errorf("an IR of 8,000 objects: %v in %v", ds, time.Since(start))
	}
	t.Logf("8,000 objects verified in %v", time.Since(start))
}
