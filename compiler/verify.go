package compiler

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

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
	// yamlOf indents each field by its depth, so an IR nested 10,000 deep (what JSON
	// readers allow) would make 100 MB of YAML: refuse it first, as its YAML would be.
	if depthOf(b.Program.Input.Fields) > yamlnode.MaxDepth || depthOf(b.Program.Output.Fields) > yamlnode.MaxDepth || slices.ContainsFunc(b.Scoring.Dimensions, func(d ir.Dimension) bool { return len(d.Path) > yamlnode.MaxDepth }) {
		return diag.List{{Phase: diag.PhaseValidate, Code: diag.TooDeep, Path: []string{}, Line: 1, Column: 1,
			Message: fmt.Sprintf("the IR nests fields more than %d deep; Benchy accepts at most %d", yamlnode.MaxDepth, yamlnode.MaxDepth)}}
	}
	src := yamlOf(b)
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

// yamlOf writes an IR as canonical Benchy YAML, the inverse of compilation for a valid IR,
// through the one writer (Write).
func yamlOf(b *ir.Benchmark) []byte {
	lang := yamlnode.Str(b.Benchmark.Language.Code)
	if l := b.Benchmark.Language; l.IsPair() {
		lang = yamlnode.Mapping(yamlnode.Entry("source", yamlnode.Str(l.Source)), yamlnode.Entry("target", yamlnode.Str(l.Target)))
	}
	aggregator := b.Scoring.InstanceAggregator
	if b.Scoring.Evaluator != ir.EvaluatorExactMatch || b.Scoring.BenchmarkAggregator != ir.AggregatorMean {
		aggregator = "not-" + aggregator // a fixed value the IR got wrong: the compile reports it
	}
	data := yamlnode.Mapping(yamlnode.Entry("path", yamlnode.Str(b.Data.Path)))
	if b.Data.Format != ir.FormatJSONL {
		data.Pairs = append(data.Pairs, yamlnode.Entry("format", yamlnode.Str(b.Data.Format)))
	}
	return Write(yamlnode.Mapping(
		yamlnode.Entry("version", yamlnode.Str(b.Version)),
		yamlnode.Entry("ontology_version", yamlnode.Str(b.OntologyVersion)),
		yamlnode.Entry("benchmark", yamlnode.Mapping(
			yamlnode.Entry("task", yamlnode.Str(b.Benchmark.Task)),
			yamlnode.Entry("domain", yamlnode.Str(b.Benchmark.Domain)),
			yamlnode.Entry("language", lang))),
		yamlnode.Entry("program", yamlnode.Mapping(
			yamlnode.Entry("input", fieldsNode(b.Program.Input.Fields)),
			yamlnode.Entry("output", fieldsNode(b.Program.Output.Fields)))),
		yamlnode.Entry("scoring", yamlnode.Mapping(
			yamlnode.Entry("weights", weightsNode(b.Scoring.Dimensions)),
			yamlnode.Entry("aggregator", yamlnode.Str(aggregator)))),
		yamlnode.Entry("data", data),
		yamlnode.Entry("ai-system", systemNode(b.AISystem)),
	))
}

// fieldsNode is the mapping that declares fields.
func fieldsNode(fields []ir.Field) *yamlnode.Node {
	n := yamlnode.Mapping()
	for _, f := range fields {
		var v *yamlnode.Node
		switch f.Type {
		case ir.TypeObject:
			v = fieldsNode(f.Fields)
		case ir.TypeEnum:
			members := make([]*yamlnode.Node, len(f.Values))
			for i, m := range f.Values {
				members[i] = yamlnode.Str(m)
			}
			v = yamlnode.Mapping(yamlnode.Entry("enum", yamlnode.List(members...)))
		default:
			v = yamlnode.Str(f.Type)
		}
		n.Pairs = append(n.Pairs, yamlnode.Entry(f.Name, v))
	}
	return n
}

// weightsNode nests the dimensions' weights by path, in the order the paths first appear.
func weightsNode(dims []ir.Dimension) *yamlnode.Node {
	root := yamlnode.Mapping()
	for _, d := range dims {
		if len(d.Path) == 0 {
			continue
		}
		m := root
		for _, name := range d.Path[:len(d.Path)-1] {
			sub, _ := m.Get(name)
			if sub == nil || sub.Kind != yamlnode.Map {
				sub = yamlnode.Mapping()
				m.Pairs = append(m.Pairs, yamlnode.Entry(name, sub))
			}
			m = sub
		}
		m.Pairs = append(m.Pairs, yamlnode.Entry(d.Path[len(d.Path)-1], yamlnode.Plain(string(ir.AppendNumber(nil, d.Weight)))))
	}
	return root
}

// depthOf is how deep fields nest: 1 for leaves only.
func depthOf(fields []ir.Field) int {
	deepest := 0
	for _, f := range fields {
		deepest = max(deepest, 1+depthOf(f.Fields))
	}
	return deepest
}

// scalarNode is a parameter's value as a scalar: what the compiler read it from.
func scalarNode(v any) *yamlnode.Node {
	switch x := v.(type) {
	case string:
		return yamlnode.Str(x)
	case bool:
		return yamlnode.Plain(strconv.FormatBool(x))
	case float64:
		return yamlnode.Plain(string(ir.AppendNumber(nil, x)))
	}
	return yamlnode.Str(fmt.Sprint(v))
}
