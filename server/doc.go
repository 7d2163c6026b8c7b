// Package server is `benchy serve`: a small HTTP server over a workspace directory of
// benchmarks that the browser app uses to read and save benchmarks, compile them with the
// same compiler as the CLI, and launch and watch runs.
//
// It is safe by default: it binds loopback unless told otherwise, and then requires a
// token of MinTokenLength characters or more; it answers only requests whose Host names it
// and whose Origin, if any, is its own (hosts.go: no DNS rebinding); state-changing requests
// must be JSON (or an upload's raw bytes); every path is confined to the workspace (os.Root:
// no "..", no absolute paths, no symbolic links out); the API writes benchmark content only,
// never code nor what a binding runs, atomically and durably (files.go, save.go); request
// bodies are size-limited and connections bounded in number and time (listen.go); files are
// opened without blocking (read.go); and nothing secret (keys, commands, environment, the
// server's own paths) is ever sent.
//
// Runs are kept in the workspace's run store (WORKSPACE/.benchy/benchy.db, package store),
// shared with `benchy run`, and prepared and executed by the same run service
// (internal/workspace: Prepare, Execute, Ending), so that a benchmark binds, runs and ends
// alike in both. POST /api/runs compiles and binds a benchmark and queues a run;
// at most Config.MaxRuns execute at once, each of at most MaxConcurrency workers, and at
// most MaxQueued others wait first in, first out (one more is refused with 429). A run the
// store shows as another process's (a `benchy run`) is followed in the store; one whose
// process is gone is marked interrupted when it is looked at (runs.go). Each result
// is stored as the engine reports it, so a run that stops (cancelled, the server shut down
// or killed) keeps every example it finished, and resuming it asks the AI-system only for
// the missing ones. GET /api/runs/{id}/events streams a run's progress as Server-Sent
// Events without ever holding the run up; results are read page by page or exported as a
// stream, so a run of a million examples costs the server no more memory than ten.
//
// What it sends are package api's types, the ones the browser app reads; every error
// answer is {"error": {"code", "message"}} with a code of api.Codes (or a diagnostic's).
// Handlers return their errors, and one table (errors.go, answerError) turns them into
// answers: ours as they are; a failure of the server itself is logged under a new request
// id and answered 500 "internal error" with that id, never with its Go error's text.
package server
