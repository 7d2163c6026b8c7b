package ir

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Fixed values the specification makes explicit in the IR (Appendix A.9).
const (
	SpecVersion         = "1.0"
	EvaluatorExactMatch = "exact_match"
	AggregatorWeighted  = "weighted_mean"
	AggregatorMean      = "mean"
	FormatJSONL         = "jsonl"
	SystemModel         = "model"
	SystemExternal      = "external"
)

// Semantic type names (paper §2). TypeObject marks a nested field structure.
const (
	TypeString   = "string"
	TypeInt      = "int"
	TypeFloat    = "float"
	TypeBool     = "bool"
	TypeEnum     = "enum"
	TypeDate     = "date"
	TypeTime     = "time"
	TypeDatetime = "datetime"
	TypeImage    = "image"
	TypeAudio    = "audio"
	TypeDocument = "document"
	TypeObject   = "object"
)

// Types lists the semantic type names an author may write, in the paper's order.
var Types = []string{TypeString, TypeInt, TypeFloat, TypeBool, TypeEnum, TypeDate, TypeTime, TypeDatetime, TypeImage, TypeAudio, TypeDocument}

// IsArtifact reports whether values of type t are files passed by path.
func IsArtifact(t string) bool { return t == TypeImage || t == TypeAudio || t == TypeDocument }

// Benchmark is a compiled benchmark. Field order is the order of the JSON object only for
// readability; the canonical bytes sort keys.
type Benchmark struct {
	Version         string         `json:"version"`
	OntologyVersion string         `json:"ontology_version"`
	Benchmark       Classification `json:"benchmark"`
	Program         Program        `json:"program"`
	Scoring         Scoring        `json:"scoring"`
	Data            Data           `json:"data"`
	AISystem        AISystem       `json:"ai_system"`
}

// Classification places the benchmark in the ontology: /task/domain/language/.
type Classification struct {
	Task     string   `json:"task"`
	Domain   string   `json:"domain"`
	Language Language `json:"language"`
}

// Language is a single ISO 639-1 code, or a source/target pair for translate. It encodes as a
// JSON string or as {"source", "target"}.
type Language struct {
	Code   string
	Source string
	Target string
}

// IsPair reports whether the language is a source/target pair.
func (l Language) IsPair() bool { return l.Code == "" }

// MarshalJSON encodes a code as a string and a pair as an object.
func (l Language) MarshalJSON() ([]byte, error) {
	if !l.IsPair() {
		return json.Marshal(l.Code)
	}
	return json.Marshal(struct {
		Source string `json:"source"`
		Target string `json:"target"`
	}{l.Source, l.Target})
}

// UnmarshalJSON accepts either form.
func (l *Language) UnmarshalJSON(b []byte) error {
	*l = Language{}
	if err := json.Unmarshal(b, &l.Code); err == nil {
		if l.Code == "" {
			return errors.New("ir: empty language code")
		}
		return nil
	}
	var p struct {
		Source string `json:"source"`
		Target string `json:"target"`
	}
	// The IR decoder's DisallowUnknownFields does not reach into UnmarshalJSON; ask again.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return err
	}
	if p.Source == "" || p.Target == "" {
		return errors.New("ir: language pair needs source and target")
	}
	l.Source, l.Target = p.Source, p.Target
	return nil
}

// Program holds the typed input and output schemas. Each is an object Field without a name.
type Program struct {
	Input  Field `json:"input"`
	Output Field `json:"output"`
}

// Field is a named field of a schema, or a schema root (Name empty). An object has Fields in
// declaration order; an enum has Values in declaration order; other types have neither.
type Field struct {
	Name   string   `json:"name,omitempty"`
	Type   string   `json:"type"`
	Fields []Field  `json:"fields,omitempty"`
	Values []string `json:"values,omitempty"`
}

// Leaves returns the leaf fields under f with their paths, in declaration order.
func (f Field) Leaves() []Leaf {
	var out []Leaf
	var walk func(f Field, path []string)
	walk = func(f Field, path []string) {
		for _, c := range f.Fields {
			p := append(path[:len(path):len(path)], c.Name)
			if c.Type == TypeObject {
				walk(c, p)
			} else {
				out = append(out, Leaf{Path: p, Field: c})
			}
		}
	}
	walk(f, nil)
	return out
}

// Leaf is a leaf field and its path from the schema root.
type Leaf struct {
	Path  []string
	Field Field
}

// Scoring is the resolved scoring function.
type Scoring struct {
	Evaluator           string      `json:"evaluator"`
	InstanceAggregator  string      `json:"instance_aggregator"`
	BenchmarkAggregator string      `json:"benchmark_aggregator"`
	Dimensions          []Dimension `json:"dimensions"`
}

// Dimension is one leaf output field with its weight: a scoring dimension.
type Dimension struct {
	Path   []string `json:"path"`
	Type   string   `json:"type"`
	Weight float64  `json:"weight"`
}

// Data says where the exam is. Path is as written, relative to the benchmark file.
type Data struct {
	Format string `json:"format"`
	Path   string `json:"path"`
}

// AISystem identifies the system under evaluation: a model (Provider, Model, optional Prompt
// and Parameters) or an external system (ID).
type AISystem struct {
	Type       string         `json:"type"`
	ID         string         `json:"id,omitempty"`
	Provider   string         `json:"provider,omitempty"`
	Model      string         `json:"model,omitempty"`
	Prompt     string         `json:"prompt,omitempty"`
	Parameters map[string]any `json:"parameters,omitempty"`
}
