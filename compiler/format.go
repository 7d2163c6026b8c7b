package compiler

import (
	"fmt"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// Format returns the canonical spelling of a Benchy YAML file: block style, two-space
// indentation, the specification's key order, fields in declaration order, weights in the
// order of the output fields, enums as flow lists, strings quoted only where YAML needs it.
// Comments are kept. Formatting needs only well-formed YAML, not a valid benchmark, and never
// changes meaning: a valid file compiles to the same IR before and after. It fails with the
// parse diagnostics, or with one invalid_yaml diagnostic when a comment sits where the
// canonical layout has no place for it; the output is nil then.
func Format(src []byte) ([]byte, diag.List) {
	root, ds, dropped := yamlnode.Parse(src, yamlnode.Options{Comments: true})
	if len(ds) > 0 {
		if _, plain, _ := yamlnode.Parse(src, yamlnode.Options{Full: true}); root == nil && len(plain) == 0 {
			d := ds[0]
			d.Message = fmt.Sprintf("fmt: the YAML parser cannot keep this file's comments (%s); move comments out of flow collections", d.Message)
			return nil, diag.List{d}
		}
		return nil, yamlnode.Limit(ds.Sort(), dropped)
	}
	out, kept := write(root)
	if want := yamlnode.CountComments(src); kept != want {
		return nil, diag.List{{Phase: diag.PhaseParse, Code: diag.InvalidYAML, Path: []string{}, Line: 1, Column: 1,
			Message: fmt.Sprintf("fmt: %d of %d comments have no place in the canonical layout "+
				"(beside ---, inside a flow collection, between list items or in a multi-line value); put them on their own line above a key", want-kept, want)}}
	}
	return out, nil
}
