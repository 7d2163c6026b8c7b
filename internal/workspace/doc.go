// Package workspace is the one place a benchmark is prepared and run, for `benchy run` and
// for `benchy serve` alike, so that one benchmark binds, runs and is recorded the same way
// in the terminal and in the browser.
//
// The rule for where a benchmark belongs (workspace.go): its workspace is the folder whose
// store records its runs and inside which its data is read; it binds its AI-system through
// the nearest runtime file at or above its folder, never above its workspace. The CLI's
// workspace is the nearest folder at or above the benchmark with a .benchy folder or a
// runtime file (Find); the server's is its --workspace.
//
// The run service: Prepare turns a benchmark (YAML, compiled; or IR JSON, checked as
// strictly as the compiler's own output) and its runtime file into a Plan (the IR, its
// canonical bytes and hash, the adapter factory and binding, where the run reads), or into
// diagnostics that name their file. Execute runs a plan with the engine, stores each result
// as it comes and tells an Observer; Ending is the one rule for how a run ended (completed,
// aborted, cancelled or interrupted), and End.Record writes it. The CLI keeps its flags,
// result files and printing; the server keeps its queue, event broker and scheduling.
package workspace
