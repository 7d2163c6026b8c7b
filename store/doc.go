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
// Reading is built for large runs: Page is keyset pagination over an index, and ExportRows
// streams one row at a time, so a run of a million examples costs the same memory as ten.
//
// The driver is modernc.org/sqlite, a translation of SQLite's C to Go: no cgo, so benchy stays
// one static binary that cross-compiles anywhere. It does not build for js/wasm and adds a few
// MB, so only the server and the CLI import this package; compiler, ontology, ir, diag, the
// web UI and anything the WASM build reaches must never import it (TestNoStoreInPurePackages).
//
// The database runs in WAL mode with synchronous=FULL: SQLite fsyncs the write-ahead log before
// a commit returns, so a committed result survives the process being killed and a power loss
// alike, and readers never wait for the writer.
//
// A queued or running run belongs to the Store executing it (process id, host, a token drawn
// at Open) and carries a heartbeat that Store refreshes every 5 s. MarkInterrupted, called
// when a server starts, marks only stale runs: no owner, an owner process gone from this
// host, or a heartbeat older than 15 s; a resume may take only such a run. Close gives up
// the runs the Store still owns.
package store
