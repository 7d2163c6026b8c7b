// Package form is the editor's model of a benchmark: what the web form shows and edits. It
// is filled from any YAML that parses (read through internal/yamlnode, the one strict
// front end) and written back as canonical YAML by compiler.Write, the one writer, so that
// what the form writes is what `benchy fmt` prints. Each weight lives on its output leaf,
// whatever the field names hold (dots included). It is pure Go, for the browser.
package form
