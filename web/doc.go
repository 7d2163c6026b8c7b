// Package web is Benchy's browser app: go-app components, registered identically by the
// WebAssembly entry point (wasm/) and by the server (server/), which prerenders them.
//
// This package is the routes and the app's handler (Routes, Pages, Handler); each page is
// a folder of its own: editor (the form, the YAML, diagnostics and the IR preview), runs,
// results, compare, leaderboard, grid (a leaderboard's examples side by side) and ontology;
// live follows runs for the pages that show their progress. The pages share the kit in web/ui (the shell, the
// formatters, the links and ui.Load, the one remote-value state) and talk to the server
// only through web/client, the typed client of the API. A new page is a new folder and one
// app.Route line here (and its path in Pages, to be cached for offline use).
package web
