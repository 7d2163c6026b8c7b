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
// parse diagnostics, or with one unplaced_comment diagnostic, at the first comment it cannot
// keep, when a comment sits where the canonical layout has no place for it; the output is
// nil then.
func Format(src []byte) ([]byte, diag.List) {
	root, ds, dropped := yamlnode.Parse(src, yamlnode.Options{Comments: true})
	if len(ds) > 0 {
		if _, plain, _ := yamlnode.Parse(src, yamlnode.Options{Full: true}); root == nil && len(plain) == 0 {
			d := ds[0]
			d.Code = diag.UnplacedComment
			d.Message = fmt.Sprintf("the YAML parser cannot keep this file's comments (%s); move comments out of flow collections", d.Message)
			return nil, diag.List{d}
		}
		return nil, yamlnode.Limit(ds.Sort(), dropped, "")
	}
	out, kept := write(root)
	if comments := yamlnode.Comments(src); kept != len(comments) {
		at := unplaced(comments, yamlnode.Comments(out))
		msg := "this comment has no place in the canonical layout (beside ---, inside a flow collection, " +
			"between list items or in a multi-line value); put it on its own line above a key"
		if n := len(comments) - kept; n > 1 {
			msg += fmt.Sprintf(" (%d of %d comments have no place)", n, len(comments))
		}
		return nil, diag.List{{Phase: diag.PhaseParse, Code: diag.UnplacedComment, Path: []string{}, Line: at.Line, Column: at.Column, Message: msg}}
	}
	return out, nil
}

// unplaced is the first comment of the source that the output lacks, matched by text: of
// comments that read the same, the earliest ones count as kept. With none lacking (the
// writer joined lines of one comment, say) it is the first comment.
func unplaced(src, out []yamlnode.Comment) yamlnode.Comment {
	left := map[string]int{}
	for _, c := range out {
		left[c.Text]++
	}
	for _, c := range src {
		if left[c.Text] == 0 {
			return c
		}
		left[c.Text]--
	}
	if len(src) == 0 {
		return yamlnode.Comment{Line: 1, Column: 1}
	}
	return src[0]
}
