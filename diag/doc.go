// Package diag holds Benchy's diagnostics: the one shape in which the compiler, the engine,
// the server and the browser report a problem, and the registry of every code they may carry.
//
// A diagnostic is data, not a string, so the CLI can print it as FILE:LINE:COL lines, the
// server can send it as JSON and the browser can move the cursor to it, all from one value.
package diag
