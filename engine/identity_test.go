package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// identityBench is a benchmark as a user writes it, for the benchmark hash's YAML-level table.
const identityBench = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input: {text: string}
  output:
    label: {enum: [yes, no]}
scoring: {weights: {label: 1}, aggregator: weighted_mean}
data: {path: ./data.jsonl}
ai-system: {type: external, id: sys-1}
`

// TestBenchmarkHashFromYAML: the benchmark hash of a compiled file, a row per edit a user
// makes. Choosing another AI-system, or writing the same benchmark otherwise (comments,
// key order, flow or block style), keeps it; any edit of the program, scoring, task or
// data changes it. (ir/benchmark_hash_test.go holds the IR-level rule.)
func TestBenchmarkHashFromYAML(t *testing.T) {
	hash := func(src string) string {
		t.Helper()
		canonical, err := ir.Marshal(compileYAML(t, src))
		if err != nil {
			t.Fatal(err)
		}
		h, err := ir.BenchmarkHash(canonical)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := hash(identityBench)
	edit := func(old, new string) string {
		if !strings.Contains(identityBench, old) {
			t.Fatalf("%q is not in the benchmark", old)
		}
		return strings.Replace(identityBench, old, new, 1)
	}
	tests := []struct {
		rule    string
		src     string
		changes bool
	}{
		{"another external system", edit("id: sys-1", "id: baseline"), false},
		{"a model system", edit("{type: external, id: sys-1}", "{type: model, provider: local, model: m-1, prompt: p.txt, parameters: {temperature: 0}}"), false},
		{"a comment and the keys in another order", "# the same exam\n" + edit("scoring: {weights: {label: 1}, aggregator: weighted_mean}", "scoring:\n  aggregator: weighted_mean\n  weights:\n    label: 1"), false},
		{"another input field name", edit("{text: string}", "{body: string}"), true},
		{"another input type", edit("{text: string}", "{text: document}"), true},
		{"one more enum value", edit("[yes, no]", "[yes, no, maybe]"), true},
		{"the enum in another order", edit("[yes, no]", "[no, yes]"), true},
		{"another weight", edit("{label: 1}", "{label: 2}"), true},
		{"another task", edit("task: classify", "task: extract"), true},
		{"another language", edit("language: en", "language: es"), true},
		{"another data path", edit("./data.jsonl", "./other.jsonl"), true},
	}
	for _, tt := range tests {
		if got := hash(tt.src); (got != base) != tt.changes {
			t.Errorf("%s: benchmark hash changed %v, want %v", tt.rule, got != base, tt.changes)
		}
	}
}

// TestReportIdentities: a run's report carries the three identities beside A.14's fields:
// the benchmark hash and the system as the caller bound them, and the digest of the dataset
// its validation pass read; with no system given, none is written.
func TestReportIdentities(t *testing.T) {
	b := compileYAML(t, identityBench)
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(
		`{"input": {"text": "a"}, "expected": {"label": "yes"}}`, `{"input": {"text": "b"}, "expected": {"label": "no"}}`)})
	canonical, _ := ir.Marshal(b)
	bh, _ := ir.BenchmarkHash(canonical)
	sys := NewSystem(b.AISystem, "", "sys-1", "sha256:fp")
	yes := func(context.Context, int, map[string]any) (any, error) { return map[string]any{"label": "yes"}, nil }
	var c counter
	rr, err := run(t, b, root, &c, yes, Options{BenchmarkHash: bh, System: &sys, IRHash: ir.Hash(canonical)})
	if err != nil {
		t.Fatal(err)
	}
	v, err := DatasetDigest(context.Background(), b, root, Paths{})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(rr.report)
	var doc struct {
		IRHash        string  `json:"ir_hash"`
		BenchmarkHash string  `json:"benchmark_hash"`
		DatasetDigest string  `json:"dataset_digest"`
		System        *System `json:"system"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.BenchmarkHash != bh || doc.DatasetDigest != v.Digest || doc.System == nil || doc.System.Hash != sys.Hash || doc.System.Label != "sys-1" || doc.IRHash == bh {
		t.Errorf("report identities: %s", body)
	}
	if v.Rows != 2 || v.Total != 2 {
		t.Errorf("DatasetDigest counted %d rows, %d to run", v.Rows, v.Total)
	}
	rr, err = run(t, b, root, &c, yes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = json.Marshal(rr.report)
	if strings.Contains(string(body), `"system"`) || strings.Contains(string(body), `"benchmark_hash"`) || !strings.Contains(string(body), `"dataset_digest":"`+v.Digest) {
		t.Errorf("a run with no identities given: %s", body)
	}
}
