package provider

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// MaxRenderedBytes bounds the text of one request to a provider: its system message and
// the text of its user message, every placeholder filled in, at most 8 MiB (as the server
// bounds a request body; a million tokens of English is some 4 MiB). The artifacts are not
// counted: MaxArtifactBytes bounds them, and they are streamed from their files. A template
// multiplies a field by its placeholders (a 500 KB prompt of {{text}} and a 1 KiB field
// are 64 MiB of text, which took 375 MiB to render), so a request's size is worked out
// from the template's parts and the fields' lengths before any of it is written
// (textSize), and one past the bound costs nothing to refuse. The engine asks it of every
// example before the first call (CheckInput), so that such a row stops the run at its
// line, as a dataset problem (request_too_large). The text is counted as the request's
// JSON writes it (jsonLen): a < is \u003c there, so 8 MiB of < would be 48 MiB sent.
const MaxRenderedBytes = 8 << 20

// maxEscape is the most bytes the request's JSON writes for one byte of text (\u003c).
const maxEscape = 6

// jsonLen is the length of text as a JSON string's content in a request body, as
// encoding/json writes it (HTML characters escaped): \" \\ \n \r \t as two bytes, other
// control characters, < > &, U+2028, U+2029 and each byte of invalid UTF-8 as six.
func jsonLen(text string) int64 {
	var n int64
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6 // \ufffd
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += int64(size)
		}
		i += size
	}
	return n
}

// textCost is the text a part of a request writes: fixed bytes of its own, and the text of
// each leaf's value as many times as the part names it.
type textCost struct {
	fixed int64
	uses  []leafUse
}

// leafUse is a leaf a part writes the value of, n times.
type leafUse struct {
	leaf *ir.Leaf
	n    int64
}

// use counts one more placeholder of leaf.
func (c *textCost) use(leaf *ir.Leaf) {
	for i := range c.uses {
		if c.uses[i].leaf == leaf {
			c.uses[i].n++
			return
		}
	}
	c.uses = append(c.uses, leafUse{leaf: leaf, n: 1})
}

// partCost is the text cost of a template part's pieces: its literal text, and each text
// leaf's placeholders (an artifact's is a media part, not text).
func partCost(ps []piece) textCost {
	var c textCost
	for _, x := range ps {
		switch {
		case x.leaf == nil:
			c.fixed += jsonLen(x.text)
		case !ir.IsArtifact(x.leaf.Field.Type):
			c.use(x.leaf)
		}
	}
	return c
}

// renderCost is the text cost of Render's parts for schema: a line "label: value" for each
// text leaf, a line "label: [type]" for each artifact.
func renderCost(schema ir.Field) textCost {
	var c textCost
	leaves := schema.Leaves()
	for i := range leaves {
		l := &leaves[i]
		label := jsonLen(strings.Join(l.Path, "."))
		if ir.IsArtifact(l.Field.Type) {
			c.fixed += label + jsonLen(": []\n"+l.Field.Type)
			continue
		}
		c.fixed += label + jsonLen(": \n")
		c.uses = append(c.uses, leafUse{leaf: l, n: 1})
	}
	return c
}

// textSize is the text of one input's request, worked out before it is rendered, and the
// leaf that writes the most of it, for messages.
type textSize struct {
	bytes    int64
	fixed    int64 // of bytes, the prompt's own text
	most     *ir.Leaf
	mostUses int64 // how many times most is written
	mostLen  int64 // the length of its value's text
}

// add adds the text c writes for input.
func (s *textSize) add(c textCost, input map[string]any) {
	s.bytes = addCapped(s.bytes, c.fixed)
	s.fixed = addCapped(s.fixed, c.fixed)
	for _, u := range c.uses {
		n := jsonLen(scalarText(valueAt(input, u.leaf.Path)))
		w := mulCapped(n, u.n)
		s.bytes = addCapped(s.bytes, w)
		if s.most == nil || w > mulCapped(s.mostLen, s.mostUses) {
			s.most, s.mostUses, s.mostLen = u.leaf, u.n, n
		}
	}
}

// bound is the most text c writes for any input of a row of at most rowBytes bytes: a
// value's text is no longer than the row that writes it (a string's escapes only shorten
// when decoded, other scalars are written as the row writes them), or 4 bytes (null) for
// a value the row leaves out, and each of its bytes is at most maxEscape bytes sent.
func (c textCost) bound(rowBytes int64) int64 {
	n := c.fixed
	for _, u := range c.uses {
		n = addCapped(n, mulCapped(mulCapped(rowBytes+4, maxEscape), u.n))
	}
	return n
}

// costs are the text costs of the system message and the user message of the adapter's
// requests.
func (a *modelAdapter) costs() (system, user textCost) {
	t := a.tmpl
	if t == nil {
		system = textCost{fixed: jsonLen(a.task.Prompt)}
	} else {
		system = t.systemCost
	}
	if t != nil && t.hasUser {
		return system, t.userCost
	}
	return system, renderCost(a.task.Input)
}

// textSize is the text of input's request, counted without rendering it.
func (a *modelAdapter) textSize(input map[string]any) textSize {
	system, user := a.costs()
	var s textSize
	s.add(system, input)
	s.add(user, input)
	return s
}

// CheckInput refuses an input whose request would carry more than MaxRenderedBytes of text
// (engine.InputChecker), with the leaf that writes the most of it.
func (a *modelAdapter) CheckInput(input map[string]any) error {
	s := a.textSize(input)
	if s.bytes <= MaxRenderedBytes {
		return nil
	}
	path := []string{"input"}
	if s.most != nil {
		path = append(path, s.most.Path...)
	}
	return &engine.RowError{Code: diag.RequestTooLarge, Path: path, Message: s.tooLarge().Error()}
}

// RowsFit reports that no row of at most rowBytes bytes has a request past
// MaxRenderedBytes (engine.InputChecker).
func (a *modelAdapter) RowsFit(rowBytes int) bool {
	system, user := a.costs()
	return addCapped(system.bound(int64(rowBytes)), user.bound(int64(rowBytes))) <= MaxRenderedBytes
}

// tooLarge is the error of a request past MaxRenderedBytes. It names the field that
// writes the most and how, never a byte of its value.
func (s textSize) tooLarge() error {
	why := ""
	switch {
	case s.fixed > MaxRenderedBytes:
		why = fmt.Sprintf(" (the prompt's own text is %s)", sizeText(s.fixed))
	case s.most != nil && s.mostUses > 1:
		why = fmt.Sprintf(" (the prompt writes input.%s, %s, %d times)", strings.Join(s.most.Path, "."), sizeText(s.mostLen), s.mostUses)
	case s.most != nil:
		why = fmt.Sprintf(" (input.%s is %s)", strings.Join(s.most.Path, "."), sizeText(s.mostLen))
	}
	return fmt.Errorf("its request would carry %s of text as sent (JSON-escaped)%s, more than the %s a request to a provider may carry (artifacts apart)", sizeText(s.bytes), why, mib(MaxRenderedBytes))
}

// sizeText writes a length in bytes, KiB or MiB, for messages.
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return mib(n)
}

// addCapped is a + b for lengths, at most math.MaxInt64.
func addCapped(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// mulCapped is a × b for lengths and counts, at most math.MaxInt64.
func mulCapped(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}
