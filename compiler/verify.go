package compiler

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

// VerifyIR checks an IR that did not come from this compiler (an IR JSON file handed to
// `benchy run`): it must be exactly what the compiler makes of the benchmark it describes.
// The IR is written back as Benchy YAML and compiled, so every rule of the language holds
// for it too (task rules, weights mirroring the output, the fixed values of A.9), then the
// bytes are compared. Diagnostics point into that YAML, and their messages name the
// problem.
func VerifyIR(b *ir.Benchmark) diag.List {
	// YAMLOf indents each field by its depth, so an IR nested 10,000 deep (what JSON
	// readers allow) would make 100 MB of YAML: refuse it first, as its YAML would be.
	if depthOf(b.Program.Input.Fields) > yamlnode.MaxDepth || depthOf(b.Program.Output.Fields) > yamlnode.MaxDepth || slices.ContainsFunc(b.Scoring.Dimensions, func(d ir.Dimension) bool { return len(d.Path) > yamlnode.MaxDepth }) {
		return diag.List{{Phase: diag.PhaseValidate, Code: diag.TooDeep, Path: []string{}, Line: 1, Column: 1,
			Message: fmt.Sprintf("the IR nests fields more than %d deep; Benchy accepts at most %d", yamlnode.MaxDepth, yamlnode.MaxDepth)}}
	}
	src := YAMLOf(b)
	canonical, _, ds := CompileCanonical(src)
	if len(ds) > 0 {
		return ds
	}
	given, err := ir.Marshal(b)
	if err != nil || !bytes.Equal(canonical, given) {
		return diag.List{{Phase: diag.PhaseValidate, Code: diag.InvalidValue, Path: []string{}, Line: 1, Column: 1,
			Message: "the IR is not what the compiler makes of the benchmark it describes (fixed values, field order or dimensions differ)"}}
	}
	return nil
}

// YAMLOf writes an IR as canonical Benchy YAML, the inverse of compilation for a valid IR.
func YAMLOf(b *ir.Benchmark) []byte {
	var w strings.Builder
	fmt.Fprintf(&w, "version: %s\nontology_version: %s\n", quote(b.Version), quote(b.OntologyVersion))
	fmt.Fprintf(&w, "benchmark:\n  task: %s\n  domain: %s\n", quote(b.Benchmark.Task), quote(b.Benchmark.Domain))
	if l := b.Benchmark.Language; l.IsPair() {
		fmt.Fprintf(&w, "  language:\n    source: %s\n    target: %s\n", quote(l.Source), quote(l.Target))
	} else {
		fmt.Fprintf(&w, "  language: %s\n", quote(l.Code))
	}
	w.WriteString("program:\n  input:\n")
	writeFields(&w, b.Program.Input.Fields, 2)
	w.WriteString("  output:\n")
	writeFields(&w, b.Program.Output.Fields, 2)
	w.WriteString("scoring:\n  weights:\n")
	writeWeights(&w, b.Scoring.Dimensions)
	aggregator := b.Scoring.InstanceAggregator
	if b.Scoring.Evaluator != ir.EvaluatorExactMatch || b.Scoring.BenchmarkAggregator != ir.AggregatorMean {
		aggregator = "not-" + aggregator // a fixed value the IR got wrong: the compile reports it
	}
	fmt.Fprintf(&w, "  aggregator: %s\n", quote(aggregator))
	if b.Data.Format != ir.FormatJSONL {
		fmt.Fprintf(&w, "data:\n  format: %s\n", quote(b.Data.Format))
		fmt.Fprintf(&w, "  path: %s\n", quote(b.Data.Path))
	} else {
		fmt.Fprintf(&w, "data:\n  path: %s\n", quote(b.Data.Path))
	}
	s := b.AISystem
	fmt.Fprintf(&w, "ai-system:\n  type: %s\n", quote(s.Type))
	for _, kv := range [][2]string{{"id", s.ID}, {"provider", s.Provider}, {"model", s.Model}, {"prompt", s.Prompt}} {
		if kv[1] != "" {
			fmt.Fprintf(&w, "  %s: %s\n", kv[0], quote(kv[1]))
		}
	}
	if len(s.Parameters) > 0 {
		w.WriteString("  parameters:\n")
		keys := make([]string, 0, len(s.Parameters))
		for k := range s.Parameters {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&w, "    %s: %s\n", quote(k), scalarYAML(s.Parameters[k]))
		}
	}
	return []byte(w.String())
}

func writeFields(w *strings.Builder, fields []ir.Field, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, f := range fields {
		switch f.Type {
		case ir.TypeObject:
			fmt.Fprintf(w, "%s%s:\n", indent, quote(f.Name))
			writeFields(w, f.Fields, depth+1)
		case ir.TypeEnum:
			values := make([]string, len(f.Values))
			for i, v := range f.Values {
				values[i] = quote(v)
			}
			fmt.Fprintf(w, "%s%s:\n%s  enum: [%s]\n", indent, quote(f.Name), indent, strings.Join(values, ", "))
		default:
			fmt.Fprintf(w, "%s%s: %s\n", indent, quote(f.Name), quote(f.Type))
		}
	}
}

// writeWeights nests the dimensions' weights by path, in the order the paths first appear.
func writeWeights(w *strings.Builder, dims []ir.Dimension) {
	written := map[string]bool{} // object paths already opened, each key quoted
	for _, d := range dims {
		key := ""
		for i := 1; i < len(d.Path); i++ {
			key += strconv.Quote(d.Path[i-1])
			if !written[key] {
				fmt.Fprintf(w, "%s%s:\n", strings.Repeat("  ", i+1), quote(d.Path[i-1]))
				written[key] = true
			}
		}
		if len(d.Path) > 0 {
			fmt.Fprintf(w, "%s%s: %s\n", strings.Repeat("  ", len(d.Path)+1), quote(d.Path[len(d.Path)-1]), string(ir.AppendNumber(nil, d.Weight)))
		}
	}
}

// depthOf is how deep fields nest: 1 for leaves only.
func depthOf(fields []ir.Field) int {
	deepest := 0
	for _, f := range fields {
		deepest = max(deepest, 1+depthOf(f.Fields))
	}
	return deepest
}

func scalarYAML(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case bool:
		return fmt.Sprint(x)
	case float64:
		return string(ir.AppendNumber(nil, x))
	}
	return quote(fmt.Sprint(v))
}
