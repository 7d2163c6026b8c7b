package irschema

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON is the JSON Schema (draft 2020-12) of the IR that Marshal produces. It is
// published so that tools outside Go can check an IR without this package.
//
//go:embed ir.schema.json
var JSON []byte

const schemaURL = "mem://ir.schema.json"

var (
	schemaOnce     sync.Once
	compiledSchema *jsonschema.Schema
	schemaErr      error
)

// compileSchema compiles JSON once; it is embedded, so a failure is a bug in the
// package, reported by every later Validate call.
func compileSchema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSON))
		if err != nil {
			schemaErr = fmt.Errorf("ir: embedded schema: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource(schemaURL, doc); err != nil {
			schemaErr = fmt.Errorf("ir: embedded schema: %w", err)
			return
		}
		compiledSchema, schemaErr = c.Compile(schemaURL)
		if schemaErr != nil {
			schemaErr = fmt.Errorf("ir: embedded schema: %w", schemaErr)
		}
	})
	return compiledSchema, schemaErr
}

// Validate checks IR JSON against JSON, so an IR that did not come from Marshal
// (a file, a request body) is known to have the shape the engine relies on before it runs.
func Validate(data []byte) error {
	sch, err := compileSchema()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("ir: %w", err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("ir: %w", err)
	}
	return nil
}
