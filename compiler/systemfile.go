package compiler

import (
	"maps"
	"slices"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
)

// systemDoc is how the front end's messages name a system file.
const systemDoc = "system file"

// systemFileKeys are the keys of a system file: only the AI-system.
var systemFileKeys = []string{"ai-system"}

// CompileSystem checks a system file (benchy run --system-file, the yaml of a system the
// API is given): a YAML text holding exactly one top-level ai-system: mapping, the same
// section a benchmark has, checked by the same rules (the checker's system method) and
// read by the same front end with its bounds, so that a system runs against a benchmark
// only as the benchmark could have said it itself. A prompt it names is a path relative to
// the folder of the benchmark it runs against, as the benchmark's own prompt is: the system
// file's own folder plays no part, so one file serves every benchmark. Diagnostics are the
// compiler's, at their line and column in src, sorted and capped as Compile's are.
func CompileSystem(src []byte) (ir.AISystem, diag.List) {
	root, ds, dropped := yamlnode.Parse(src, yamlnode.Options{Doc: systemDoc})
	if root == nil {
		return ir.AISystem{}, yamlnode.Limit(ds.Sort(), 0, systemDoc)
	}
	c := &checker{lookup: ontology.Lookup, diags: ds, dropped: dropped}
	c.systemFile(root)
	if len(c.diags) > 0 {
		return ir.AISystem{}, yamlnode.Limit(c.diags.Sort(), c.dropped, systemDoc)
	}
	return c.m.system, nil
}

// VerifySystem checks an AI-system that was not read from a file (benchy run --model
// PROVIDER/MODEL, with the prompt and parameters of a benchmark's own model) by the same
// rules: written as a system file and compiled. Diagnostics point into that text.
func VerifySystem(s ir.AISystem) diag.List {
	_, ds := CompileSystem(Write(yamlnode.Mapping(yamlnode.Entry("ai-system", systemNode(s)))))
	return ds
}

// systemFile checks the top of a system file: a mapping whose one key is ai-system.
func (c *checker) systemFile(root *yamlnode.Node) {
	if root.Kind == yamlnode.Null {
		c.report(diag.MissingKey, []string{"ai-system"}, root.Pos(), "", "a system file holds one ai-system: mapping; this one is empty")
		return
	}
	if root.Kind != yamlnode.Map {
		c.report(diag.InvalidValue, nil, root.Pos(), "", "a system file is a mapping with the one key ai-system; found %s", kindOnly(root))
		return
	}
	for i := range root.Pairs {
		p := &root.Pairs[i]
		if p.KeyKind == yamlnode.String && p.Key == "ai-system" {
			continue
		}
		hint := ""
		if p.KeyKind == yamlnode.String {
			hint = c.closest(p.Key, systemFileKeys)
		}
		c.report(diag.UnknownKey, []string{p.Key}, p.Pos(), hint,
			"unknown key %q; a system file takes only the key ai-system (the benchmark says the rest)", p.Key)
	}
	if _, p := root.Get("ai-system"); p == nil && !root.Partial {
		c.report(diag.MissingKey, []string{"ai-system"}, root.Pos(), "", "the system file lacks the key \"ai-system\"")
		return
	}
	c.system(root)
}

// kindOnly names the kind of n without its text, unlike Describe: a file given as a system
// file by mistake may be any file (a .env of keys is one string), and its diagnostic must
// not show what it holds.
func kindOnly(n *yamlnode.Node) string {
	switch n.Kind {
	case yamlnode.Seq:
		return "a list"
	case yamlnode.String:
		return "a string"
	case yamlnode.Int, yamlnode.Float:
		return "a number"
	case yamlnode.Bool:
		return "a boolean"
	}
	return n.Describe()
}

// systemNode is an AI-system as the YAML it compiles from, keys in the order the compiler
// reads them: VerifyIR and VerifySystem write it.
func systemNode(s ir.AISystem) *yamlnode.Node {
	sys := yamlnode.Mapping(yamlnode.Entry("type", yamlnode.Str(s.Type)))
	for _, kv := range [][2]string{{"id", s.ID}, {"provider", s.Provider}, {"model", s.Model}, {"prompt", s.Prompt}} {
		if kv[1] != "" {
			sys.Pairs = append(sys.Pairs, yamlnode.Entry(kv[0], yamlnode.Str(kv[1])))
		}
	}
	if len(s.Parameters) > 0 {
		params := yamlnode.Mapping()
		for _, k := range slices.Sorted(maps.Keys(s.Parameters)) {
			params.Pairs = append(params.Pairs, yamlnode.Entry(k, scalarNode(s.Parameters[k])))
		}
		sys.Pairs = append(sys.Pairs, yamlnode.Entry("parameters", params))
	}
	return sys
}
