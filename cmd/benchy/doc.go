// Command benchy compiles, validates, formats and runs Benchy benchmarks, and serves the
// browser app (`benchy serve`). It only calls cli.Main: the commands live in internal/cli,
// so that tests run them in-process as the binary would.
package main
