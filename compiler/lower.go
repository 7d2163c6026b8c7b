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
	b.Scoring.Dimensions = dimensions(m.output, nil, nil)
	return b
}

// dimensions lists the leaf output fields with their weights, in declaration order.
func dimensions(fields []*field, parent []string, out []ir.Dimension) []ir.Dimension {
	for _, f := range fields {
		path := append(parent[:len(parent):len(parent)], f.name)
		if f.typ == ir.TypeObject {
			out = dimensions(f.fields, path, out)
		} else {
			out = append(out, ir.Dimension{Path: path, Type: f.typ, Weight: f.weight})
		}
	}
	return out
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
