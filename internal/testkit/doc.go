// Package testkit holds what several packages' tests share, so that each is written once:
// copying an example folder or writing a tree of files into a test's temporary directory,
// a log buffer safe to read while others write to it, the check that no piece of a secret
// leaked into a text, a process id that is certainly dead, the CPU time the benchmarks
// report beside the wall clock, and the imports of a package's files for the tests that
// keep it linkable by the WebAssembly app. It is imported by tests only.
package testkit
