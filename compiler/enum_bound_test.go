package compiler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
)

// enumBenchmark is a classify benchmark whose label is an enum of n members.
func enumBenchmark(n int) []byte {
	members := make([]string, n)
	for i := range members {
		members[i] = fmt.Sprintf("c%d", i)
	}
	return []byte(`version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input: {text: string}
  output:
    label: {enum: [` + strings.Join(members, ", ") + `]}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: ./data.jsonl}
ai-system: {type: external, id: sys-1}
`)
}

// TestEnumMembersBounded: an enum of 4,096 members (ImageNet-1k's 1,000 classes four
// times over) compiles; one of 4,097 is too_large, once, at its list, and nothing
// follows from it (its weight is not reported).
func TestEnumMembersBounded(t *testing.T) {
	if b, ds := Compile(enumBenchmark(4096)); len(ds) > 0 || len(b.Program.Output.Fields[0].Values) != 4096 {
		t.Fatalf("4,096 members:\n%s", ds.Format("b.yaml"))
	}
	for _, n := range []int{4097, 8000} {
		_, ds := Compile(enumBenchmark(n))
		if len(ds) != 1 || ds[0].Code != diag.TooLarge || ds[0].Line != 7 || ds[0].Column != 19 ||
			strings.Join(ds[0].Path, ".") != "program.output.label.enum" || !strings.Contains(ds[0].Message, fmt.Sprintf("enum has %d members; Benchy accepts at most 4096", n)) {
			t.Errorf("%d members:\n%s", n, ds.Format("b.yaml"))
		}
	}
}
