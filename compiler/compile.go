package compiler

import (
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
)

// Compile parses, validates and lowers a Benchy YAML benchmark. It returns the IR, or nil and
// every diagnostic found, sorted by position. Validation runs on text that did not parse
// only when its structure is known despite the problem (a duplicate key, an anchor, a tag);
// lowering runs only when nothing was reported. At most 100 diagnostics
// (yamlnode.MaxDiagnostics) are returned, the last saying how many more there were.
func Compile(src []byte) (*ir.Benchmark, diag.List) {
	return compile(src, ontology.Lookup)
}

// CompileCanonical compiles src and returns the canonical IR bytes and their hash.
func CompileCanonical(src []byte) (canonical []byte, hash string, ds diag.List) {
	b, ds := Compile(src)
	if len(ds) > 0 {
		return nil, "", ds
	}
	canonical, err := ir.Marshal(b)
	if err != nil {
		// The checks guarantee every string is UTF-8 and every number finite; reaching here
		// is a compiler bug, reported rather than hidden.
		panic("compiler: IR does not serialise: " + err.Error())
	}
	return canonical, ir.Hash(canonical), nil
}

func compile(src []byte, lookup func(string) (*ontology.Registry, bool)) (*ir.Benchmark, diag.List) {
	root, ds, dropped := yamlnode.Parse(src, yamlnode.Options{})
	if root == nil {
		return nil, yamlnode.Limit(ds.Sort(), 0, "")
	}
	c := &checker{lookup: lookup, diags: ds, dropped: dropped}
	c.check(root)
	if len(c.diags) > 0 {
		return nil, yamlnode.Limit(c.diags.Sort(), c.dropped, "")
	}
	return lower(&c.m), nil
}
