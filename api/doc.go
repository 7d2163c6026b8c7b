// Package api holds the wire types of Benchy's HTTP API: the JSON the server sends and
// the browser app reads, declared once. It also holds the registry of the API's error
// codes (Codes, as diag.Codes is for diagnostics) and typed builders of the API's paths.
//
// The package is pure: it imports only what encoding needs, so the web app (GOOS=js
// GOARCH=wasm) links it without the server. A server test decodes every endpoint's answer
// into these types with unknown fields refused and re-encodes it byte for byte.
package api
