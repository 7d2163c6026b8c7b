// Package ir defines Benchy's canonical JSON intermediate representation (paper Appendix A.9):
// the only form of a benchmark the engine reads. The compiler produces it from YAML; the
// engine, the server and the browser consume it.
//
// Serialisation is canonical (RFC 8785, JSON Canonicalization Scheme): the same meaning gives
// the same bytes on every platform, and the IR hash (sha256 of those bytes) names a compiled
// benchmark. The package is pure and builds to WebAssembly.
package ir
