package ir

import (
	"bytes"
	"fmt"
	"math"
)

// Marshal returns the canonical bytes of b (RFC 8785). It writes the known structure
// directly, members already in canonical order, instead of going through a generic JSON
// value: compiling a benchmark is dominated by this step otherwise. A test checks it
// against Canonicalize(json.Marshal(b)).
func Marshal(b *Benchmark) ([]byte, error) {
	w := &writer{}
	w.raw(`{"ai_system":`)
	w.system(&b.AISystem)
	w.raw(`,"benchmark":{"domain":`)
	w.str(b.Benchmark.Domain)
	w.raw(`,"language":`)
	if l := b.Benchmark.Language; l.IsPair() {
		w.raw(`{"source":`)
		w.str(l.Source)
		w.raw(`,"target":`)
		w.str(l.Target)
		w.raw(`}`)
	} else {
		w.str(l.Code)
	}
	w.raw(`,"task":`)
	w.str(b.Benchmark.Task)
	w.raw(`},"data":{"format":`)
	w.str(b.Data.Format)
	w.raw(`,"path":`)
	w.str(b.Data.Path)
	w.raw(`},"ontology_version":`)
	w.str(b.OntologyVersion)
	w.raw(`,"program":{"input":`)
	w.field(&b.Program.Input)
	w.raw(`,"output":`)
	w.field(&b.Program.Output)
	w.raw(`},"scoring":{"benchmark_aggregator":`)
	w.str(b.Scoring.BenchmarkAggregator)
	w.raw(`,"dimensions":[`)
	for i, d := range b.Scoring.Dimensions {
		if i > 0 {
			w.raw(",")
		}
		w.raw(`{"path":`)
		w.strs(d.Path)
		w.raw(`,"type":`)
		w.str(d.Type)
		w.raw(`,"weight":`)
		w.num(d.Weight)
		w.raw(`}`)
	}
	w.raw(`],"evaluator":`)
	w.str(b.Scoring.Evaluator)
	w.raw(`,"instance_aggregator":`)
	w.str(b.Scoring.InstanceAggregator)
	w.raw(`},"version":`)
	w.str(b.Version)
	w.raw(`}`)
	if w.err != nil {
		return nil, w.err
	}
	return w.buf.Bytes(), nil
}

// writer appends canonical JSON, keeping the first error.
type writer struct {
	buf bytes.Buffer
	err error
}

func (w *writer) raw(s string) { w.buf.WriteString(s) }

func (w *writer) str(s string) {
	if err := encodeString(&w.buf, s); err != nil && w.err == nil {
		w.err = err
	}
}

func (w *writer) strs(list []string) {
	w.raw("[")
	for i, s := range list {
		if i > 0 {
			w.raw(",")
		}
		w.str(s)
	}
	w.raw("]")
}

func (w *writer) num(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if w.err == nil {
			w.err = fmt.Errorf("ir: number %v is not finite", f)
		}
		return
	}
	w.buf.Write(AppendNumber(w.buf.AvailableBuffer(), f))
}

// field writes a schema field; keys in canonical order: fields, name, type, values.
func (w *writer) field(f *Field) {
	w.raw("{")
	sep := ""
	if len(f.Fields) > 0 {
		w.raw(`"fields":[`)
		for i := range f.Fields {
			if i > 0 {
				w.raw(",")
			}
			w.field(&f.Fields[i])
		}
		w.raw("]")
		sep = ","
	}
	if f.Name != "" {
		w.raw(sep + `"name":`)
		w.str(f.Name)
		sep = ","
	}
	w.raw(sep + `"type":`)
	w.str(f.Type)
	if len(f.Values) > 0 {
		w.raw(`,"values":`)
		w.strs(f.Values)
	}
	w.raw("}")
}

// system writes the AI-system; keys in canonical order: id, model, parameters, prompt,
// provider, type. Empty optional members are left out, as encoding/json's omitempty does.
func (w *writer) system(s *AISystem) {
	w.raw("{")
	member := func(key, value string) {
		if value != "" {
			w.raw(`"` + key + `":`)
			w.str(value)
			w.raw(",")
		}
	}
	member("id", s.ID)
	member("model", s.Model)
	if len(s.Parameters) > 0 {
		w.raw(`"parameters":`)
		params := make(map[string]any, len(s.Parameters))
		for k, v := range s.Parameters {
			params[k] = v
		}
		if err := encode(&w.buf, params); err != nil && w.err == nil {
			w.err = err
		}
		w.raw(",")
	}
	member("prompt", s.Prompt)
	member("provider", s.Provider)
	w.raw(`"type":`)
	w.str(s.Type)
	w.raw("}")
}
