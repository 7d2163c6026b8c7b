// Package ontology is the shared SURUS task/domain/language registry that classifies every
// benchmark as /task/domain/language/, together with the structural task→program rules that
// Benchy implements for each registry version it supports (paper §3, Appendix A.4).
//
// The registry itself is data (registry.json, embedded): identifiers and one-line
// descriptions only. The rules are code. A task that the registry lists but that has no rule
// here is reported as unsupported instead of being let through unchecked.
//
// The package is pure: it reads no files and is built to WebAssembly for the browser.
package ontology
