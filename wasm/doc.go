// Command wasm is the browser entry point of Benchy's app, built with GOOS=js GOARCH=wasm
// into assets/web/app.wasm (see the Makefile).
package main
