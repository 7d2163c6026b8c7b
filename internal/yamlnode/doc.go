// Package yamlnode is Benchy's one strict-YAML front end: it turns the bytes of every YAML
// file Benchy reads (benchmarks in the compiler, the runtime file in package
// adapter/runtimefile, the benchmark the web form edits) into a small tree of Nodes with
// positions, or into diagnostics that say where and why not.
//
// It is strict and bounded alike for every file. On the bytes and the tokens, before any
// parser builds anything, it refuses what would cost more than it weighs or is not YAML
// (limits.go: size, tokens, depth, documents; anchors and aliases; characters YAML
// excludes; invalid UTF-8); then it rejects syntax errors, several documents, directives,
// merge keys, explicit keys and tags, and reports every duplicate key. Plain scalars are
// typed by the YAML 1.2 core schema (Resolve), not by the YAML library's choices, and keep
// their source text. goccy/go-yaml's lexer reads the text; a small parser for the plain
// subset benchmarks are written in builds the tree from its tokens (fastparse.go), and
// goccy's full parser everything else, or everything when comments are kept.
//
// The package knows YAML, not Benchy: what a benchmark or a runtime file means is its
// caller's question. It takes bytes and touches no file, network or clock, so it runs
// unchanged natively and in WebAssembly.
package yamlnode
