// Package store keeps Benchy's run history in one SQLite file (DIR/.benchy/benchy.db), so that
// the server and `benchy run` share it and every scored example survives a crash.
//
// A run is a row of runs: what was evaluated (the canonical IR and its hash, the AI-system,
// the binding), how (options), and where it stands (status, timestamps, progress, and at the
// end the report). Each example result is a row of results, written in batched transactions
// by a Writer as the engine reports it; results are write-once, so a resumed run keeps what
// it already has and asks the AI-system only for the missing indices (Prior feeds
// engine.Options.Prior; Done and Result answer one index at a time).
//
// Reading is built for large runs: Page is keyset pagination over an index, and Export
// streams one row at a time, so a run of a million examples costs the same memory as ten.
//
// The driver is modernc.org/sqlite, a translation of SQLite's C to Go: no cgo, so benchy stays
// one static binary that cross-compiles anywhere. It does not build for js/wasm and adds a few
// MB, so only the server and the CLI import this package; compiler, ontology, ir, diag, the
// web UI and anything the WASM build reaches must never import it (TestNoStoreInPurePackages).
//
// The database runs in WAL mode with synchronous=NORMAL: a commit survives the process being
// killed (only a power loss can drop the last commits), and readers never wait for the writer.
package store
