// Package server is `benchy serve`: a small HTTP server over a workspace directory of
// benchmarks that the browser app uses to read and save benchmarks, compile them with the
// same compiler as the CLI, and (with the run store) launch and watch runs.
//
// It is safe by default: it binds loopback unless told otherwise, and then requires a
// token; state-changing requests must be JSON from the same origin; every path is confined
// to the workspace (os.Root: no "..", no absolute paths, no symbolic links out); request
// bodies are size-limited; and nothing secret (keys, commands, environment) is ever sent.
package server
