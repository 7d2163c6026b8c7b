// Package client is the browser app's typed client of Benchy's HTTP API: one method per
// endpoint, taking and returning the api package's wire types, so that no page builds a
// path or decodes an answer by hand.
//
// Every answer goes through one decoder: a 2xx body is decoded into the method's api
// type; any other answer becomes an *Error carrying the HTTP status and the api.Error
// body's code, message and (when the server sends one) request id. An error that is not an
// *Error means the server could not be reached at all (Offline). The requests go through
// the browser's fetch, not net/http (see fetch.go), with the tab's token when the server
// asked for one.
package client
