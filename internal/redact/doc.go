// Package redact keeps secrets out of every string Benchy writes: predictions, error
// messages, the run log, and so the stored results and their exports. A secret is a
// provider's key, a token in an http binding's URL, or a credential a command binding
// passes to its adapter.
//
// Redaction comes before any cut to a length: a message is redacted whole, then clipped, so
// that no truncation leaves a piece of a key behind. It masks every run of at least Gram
// bytes of a secret, not only the whole secret, so that a server that echoes a key in part
// ("Incorrect API key provided: sk-abcde****wxyz"), wraps it across lines, or has it cut by
// its own limit still gives nothing of it away. A secret shorter than Gram is masked where
// it appears whole; one shorter than MinSecret is not a secret (masking "1" would rewrite
// every number).
package redact
