// Package cli implements the benchy command line: its flags, what it prints, and the files
// it writes (a run's result document and stream, `benchy fmt -w`, `runs export`). Running
// a benchmark is the run service's (package internal/workspace: Prepare, Execute, Ending),
// which `benchy serve` uses too, so that a benchmark runs the same in both. cmd/benchy only
// calls Main, so every command is testable in-process.
package cli
