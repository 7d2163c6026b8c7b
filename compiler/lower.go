package compiler

import "github.com/benchy-eval/benchy/ir"

// lower is the last stage: a checked model to the IR. It adds only the fixed values the
// specification makes explicit (Appendix A.9).
func lower(m *model) *ir.Benchmark {
	b := &ir.Benchmark{
		Version:         m.version,
		OntologyVersion: m.ontologyVersion,
		Benchmark:       ir.Classification{Task: m.task, Domain: m.domain, Language: m.language},
		Program: ir.Program{
			Input:  ir.Field{Type: ir.TypeObject, Fields: lowerFields(m.input)},
			Output: ir.Field{Type: ir.TypeObject, Fields: lowerFields(m.output)},
		},
		Scoring: ir.Scoring{
			Evaluator:           ir.EvaluatorExactMatch,
			InstanceAggregator:  ir.AggregatorWeighted,
			BenchmarkAggregator: ir.AggregatorMean,
		},
		Data:     ir.Data{Format: ir.FormatJSONL, Path: m.dataPath},
		AISystem: m.system,
	}
	for _, l := range b.Program.Output.Leaves() {
		b.Scoring.Dimensions = append(b.Scoring.Dimensions, ir.Dimension{
			Path: l.Path, Type: l.Field.Type, Weight: m.weights[weightKey(l.Path)],
		})
	}
	return b
}

func lowerFields(fields []*field) []ir.Field {
	out := make([]ir.Field, len(fields))
	for i, f := range fields {
		out[i] = ir.Field{Name: f.name, Type: f.typ, Values: f.values}
		if f.typ == ir.TypeObject {
			out[i].Fields = lowerFields(f.fields)
		}
	}
	return out
}
