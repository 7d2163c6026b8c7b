// Command pack writes the gzip and brotli copies of a file beside it (FILE.gz, FILE.br),
// for the server to send the browser app compressed. Both are deterministic: the same input
// gives the same bytes. Brotli is github.com/andybalholm/brotli, a pure-Go port of Google's
// reference encoder; the standard library has none.
//
//	go run ./internal/pack assets/web/app.wasm
package main
