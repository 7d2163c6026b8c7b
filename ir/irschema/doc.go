// Package irschema holds the IR's JSON Schema (draft 2020-12, ir.schema.json, embedded) and
// checks an IR that did not come from ir.Marshal (a file given to `benchy run`, a stored run,
// a request body) against it with santhosh-tekuri/jsonschema/v6, before the engine relies on
// its shape. The schema is published so that tools outside Go can check an IR too; a test
// holds it to the types of package ir.
package irschema
