// Package assets embeds the browser app: its static files (style sheet, icons) and the
// compiled app, web/app.wasm with its gzip and brotli copies, which `make` builds before
// the server (see the Makefile's wasm target). A binary built without them serves a page
// that says so.
package assets
