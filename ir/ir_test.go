package ir

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir/irschema"
)

// invoice is the paper's running example (§3, Appendix A.11) as the compiler lowers it.
func invoice() *Benchmark {
	return &Benchmark{
		Version:         SpecVersion,
		OntologyVersion: "1.0",
		Benchmark:       Classification{Task: "extract", Domain: "finance", Language: Language{Code: "es"}},
		Program: Program{
			Input: Field{Type: TypeObject, Fields: []Field{{Name: "image", Type: TypeImage}}},
			Output: Field{Type: TypeObject, Fields: []Field{
				{Name: "invoice_number", Type: TypeString},
				{Name: "date", Type: TypeDate},
				{Name: "supplier", Type: TypeString},
				{Name: "subtotal", Type: TypeFloat},
				{Name: "total", Type: TypeFloat},
			}},
		},
		Scoring: Scoring{
			Evaluator:           EvaluatorExactMatch,
			InstanceAggregator:  AggregatorWeighted,
			BenchmarkAggregator: AggregatorMean,
			Dimensions: []Dimension{
				{Path: []string{"invoice_number"}, Type: TypeString, Weight: 1},
				{Path: []string{"date"}, Type: TypeDate, Weight: 1},
				{Path: []string{"supplier"}, Type: TypeString, Weight: 1},
				{Path: []string{"subtotal"}, Type: TypeFloat, Weight: 1},
				{Path: []string{"total"}, Type: TypeFloat, Weight: 5},
			},
		},
		Data:     Data{Format: FormatJSONL, Path: "./data/invoices.jsonl"},
		AISystem: AISystem{Type: SystemExternal, ID: "invoice-extractor-v7"},
	}
}

// invoiceIR is invoice() written out by hand by the RFC 8785 rules: keys sorted, no
// whitespace, integral weights without a fraction.
const invoiceIR = `{` +
	`"ai_system":{"id":"invoice-extractor-v7","type":"external"},` +
	`"benchmark":{"domain":"finance","language":"es","task":"extract"},` +
	`"data":{"format":"jsonl","path":"./data/invoices.jsonl"},` +
	`"ontology_version":"1.0",` +
	`"program":{` +
	`"input":{"fields":[{"name":"image","type":"image"}],"type":"object"},` +
	`"output":{"fields":[` +
	`{"name":"invoice_number","type":"string"},` +
	`{"name":"date","type":"date"},` +
	`{"name":"supplier","type":"string"},` +
	`{"name":"subtotal","type":"float"},` +
	`{"name":"total","type":"float"}` +
	`],"type":"object"}},` +
	`"scoring":{"benchmark_aggregator":"mean","dimensions":[` +
	`{"path":["invoice_number"],"type":"string","weight":1},` +
	`{"path":["date"],"type":"date","weight":1},` +
	`{"path":["supplier"],"type":"string","weight":1},` +
	`{"path":["subtotal"],"type":"float","weight":1},` +
	`{"path":["total"],"type":"float","weight":5}` +
	`],"evaluator":"exact_match","instance_aggregator":"weighted_mean"},` +
	`"version":"1.0"` +
	`}`

// translation exercises what invoice does not: a language pair, a model system with prompt
// and parameters, nested objects, an enum and fractional weights.
func translation() *Benchmark {
	b := invoice()
	b.Benchmark = Classification{Task: "translate", Domain: "legal", Language: Language{Source: "en", Target: "es"}}
	b.Program.Input = Field{Type: TypeObject, Fields: []Field{{Name: "text", Type: TypeString}}}
	b.Program.Output = Field{Type: TypeObject, Fields: []Field{
		{Name: "translation", Type: TypeString},
		{Name: "meta", Type: TypeObject, Fields: []Field{
			{Name: "register", Type: TypeEnum, Values: []string{"formal", "informal"}},
		}},
	}}
	b.Scoring.Dimensions = []Dimension{
		{Path: []string{"translation"}, Type: TypeString, Weight: 2.5},
		{Path: []string{"meta", "register"}, Type: TypeEnum, Weight: 0},
	}
	b.AISystem = AISystem{
		Type: SystemModel, Provider: "openai", Model: "gpt-x", Prompt: "./prompts/translate.md",
		Parameters: map[string]any{"temperature": 0.2, "seed": 7.0, "stop": "END", "json": true},
	}
	return b
}

func TestLanguageMarshalJSON(t *testing.T) {
	tests := []struct {
		in   Language
		want string
	}{
		{Language{Code: "es"}, `"es"`},
		{Language{Source: "en", Target: "es"}, `{"source":"en","target":"es"}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.in)
		if err != nil {
			t.Errorf("Marshal(%+v): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Marshal(%+v) = %s, want %s", tt.in, got, tt.want)
		}
		if gotPair, wantPair := tt.in.IsPair(), strings.HasPrefix(tt.want, "{"); gotPair != wantPair {
			t.Errorf("%+v.IsPair() = %v, want %v", tt.in, gotPair, wantPair)
		}
	}
}

func TestLanguageUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    Language
		wantErr bool
	}{
		{in: `"es"`, want: Language{Code: "es"}},
		{in: `{"source":"en","target":"es"}`, want: Language{Source: "en", Target: "es"}},
		{in: `{"target":"es","source":"en"}`, want: Language{Source: "en", Target: "es"}},
		{in: `""`, wantErr: true},
		{in: `null`, wantErr: true},
		{in: `{}`, wantErr: true},
		{in: `{"source":"en"}`, wantErr: true},
		{in: `{"target":"es"}`, wantErr: true},
		{in: `{"source":"en","target":""}`, wantErr: true},
		{in: `{"source":"en","target":"es","via":"fr"}`, wantErr: true},
		{in: `42`, wantErr: true},
		{in: `["en","es"]`, wantErr: true},
	}
	for _, tt := range tests {
		// Start from a non-zero value: decoding must not leave stale fields behind.
		got := Language{Code: "xx", Source: "yy", Target: "zz"}
		err := json.Unmarshal([]byte(tt.in), &got)
		if tt.wantErr {
			if err == nil {
				t.Errorf("Unmarshal(%s) = %+v, want error", tt.in, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Unmarshal(%s) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestFieldLeaves(t *testing.T) {
	root := Field{Type: TypeObject, Fields: []Field{
		{Name: "invoice_number", Type: TypeString},
		{Name: "supplier", Type: TypeObject, Fields: []Field{
			{Name: "name", Type: TypeString},
			{Name: "address", Type: TypeObject, Fields: []Field{
				{Name: "city", Type: TypeString},
				{Name: "country", Type: TypeEnum, Values: []string{"es", "fr"}},
			}},
			{Name: "vat", Type: TypeString},
		}},
		{Name: "total", Type: TypeFloat},
	}}
	want := []struct {
		path string
		typ  string
	}{
		{"invoice_number", TypeString},
		{"supplier.name", TypeString},
		{"supplier.address.city", TypeString},
		{"supplier.address.country", TypeEnum},
		{"supplier.vat", TypeString},
		{"total", TypeFloat},
	}
	got := root.Leaves()
	if len(got) != len(want) {
		t.Fatalf("Leaves() returned %d leaves, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if p := strings.Join(got[i].Path, "."); p != w.path || got[i].Field.Type != w.typ {
			t.Errorf("leaf %d = %s (%s), want %s (%s)", i, p, got[i].Field.Type, w.path, w.typ)
		}
		if last := got[i].Path[len(got[i].Path)-1]; last != got[i].Field.Name {
			t.Errorf("leaf %d path ends in %q but the field is %q", i, last, got[i].Field.Name)
		}
	}
	if v := got[3].Field.Values; !reflect.DeepEqual(v, []string{"es", "fr"}) {
		t.Errorf("enum leaf values = %v, want [es fr]", v)
	}
	// Sibling paths must not share a backing array.
	got[2].Path[1] = "mutated"
	if got[3].Path[1] != "address" || got[1].Path[0] != "supplier" {
		t.Errorf("leaf paths alias each other: %v, %v", got[1].Path, got[3].Path)
	}
	if l := (Field{Type: TypeObject}).Leaves(); len(l) != 0 {
		t.Errorf("Leaves() of an empty object = %+v, want none", l)
	}
}

func TestMarshalInvoice(t *testing.T) {
	got, err := Marshal(invoice())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != invoiceIR {
		t.Errorf("Marshal(invoice):\n got %s\nwant %s", got, invoiceIR)
	}
	if err := irschema.Validate(got); err != nil {
		t.Errorf("irschema.Validate(Marshal(invoice)): %v", err)
	}
	again, _ := Marshal(invoice())
	if Hash(got) != Hash(again) {
		t.Errorf("two marshals of the same benchmark hash differently")
	}
}

func TestRoundTrip(t *testing.T) {
	for name, b := range map[string]*Benchmark{"invoice": invoice(), "translation": translation()} {
		data, err := Marshal(b)
		if err != nil {
			t.Errorf("%s: Marshal: %v", name, err)
			continue
		}
		if err := irschema.Validate(data); err != nil {
			t.Errorf("%s: ValidateJSON: %v", name, err)
		}
		back, err := Unmarshal(data)
		if err != nil {
			t.Errorf("%s: Unmarshal: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(back, b) {
			t.Errorf("%s: round trip changed the benchmark:\n got %+v\nwant %+v", name, back, b)
		}
		data2, err := Marshal(back)
		if err != nil || string(data2) != string(data) {
			t.Errorf("%s: re-marshal differs (%v):\n%s\n%s", name, err, data2, data)
		}
	}
}

func TestUnmarshalRejects(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(invoiceIR, old) {
			t.Fatalf("test bug: %q not in invoiceIR", old)
		}
		return strings.Replace(invoiceIR, old, new, 1)
	}
	tests := []struct{ name, in string }{
		{"unknown top-level key", replace(`"version":"1.0"`, `"version":"1.0","extra":1`)},
		{"unknown benchmark key", replace(`"task":"extract"`, `"task":"extract","subtask":"x"`)},
		{"unknown field key", replace(`{"name":"image","type":"image"}`, `{"name":"image","type":"image","format":"png"}`)},
		{"unknown dimension key", replace(`"weight":5`, `"weight":5,"tolerance":0.1`)},
		{"unknown ai_system key", replace(`"id":"invoice-extractor-v7"`, `"id":"invoice-extractor-v7","url":"x"`)},
		{"unknown language pair key", replace(`"language":"es"`, `"language":{"source":"en","target":"es","via":"fr"}`)},
		{"trailing value", invoiceIR + ` {}`},
		{"trailing close brace", invoiceIR + `}`},
		{"wrong type", replace(`"weight":5`, `"weight":"5"`)},
		{"not an object", `[]`},
	}
	for _, tt := range tests {
		if _, err := Unmarshal([]byte(tt.in)); err == nil {
			t.Errorf("%s: Unmarshal accepted %s", tt.name, tt.in)
		}
	}
}
