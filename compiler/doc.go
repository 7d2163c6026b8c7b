// Package compiler turns Benchy YAML into the canonical JSON IR, in three named stages:
//
//	parse     YAML bytes → a node tree with positions, by package internal/yamlnode, the
//	          strict front end every YAML file Benchy reads goes through: it refuses what
//	          would cost more than it weighs or is not YAML (size, tokens, depth, anchors,
//	          aliases, characters YAML excludes, invalid UTF-8) before any parser builds
//	          anything, rejects syntax errors, several documents, directives, merge keys
//	          and tags, and reports every duplicate key;
//	validate  the node tree → a checked model, reporting every independent problem:
//	          keys, versions, ontology membership, program grammar, task rules, weights,
//	          data and AI-system definitions;
//	lower     the checked model → ir.Benchmark, with nothing added that the YAML did
//	          not say except the fixed values the specification makes explicit.
//
// A stage that reports a diagnostic stops the pipeline after it; a compile returns at most
// 100 diagnostics and a last one counting the rest. There is no normalisation
// stage: the compiler repairs nothing and injects no defaults. It takes bytes and touches no
// file, network or clock, so it runs unchanged natively and in WebAssembly.
//
// Write is Benchy's one YAML writer, the way back from a node tree to text: Format
// (`benchy fmt`) parses a file and writes it, VerifyIR writes an IR as the YAML it must have
// come from, and the web form writes the benchmark it edits, all in the same canonical
// layout.
package compiler
