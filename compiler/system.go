package compiler

import (
	"math"
	"regexp"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// data checks the data section: exactly a relative path (paper §5).
func (c *checker) data(root *node) {
	d, dp := c.section(root, "data", diag.InvalidValue, "the dataset path")
	if d == nil {
		return
	}
	c.keys(d, []string{"data"}, dp.at(), []string{"path"}, []string{"path"})
	if _, p := d.get("path"); p != nil {
		c.m.dataPath, _ = c.relativePath(p, []string{"data", "path"})
	}
}

var reDrive = regexp.MustCompile(`^[A-Za-z]:`)

// relativePath checks a path written relative to the benchmark file. Where it points is the
// engine's business; the compiler only checks its form, since it reads no files.
func (c *checker) relativePath(p *pair, path []string) (string, bool) {
	v := p.value
	bad := func(format string, args ...any) (string, bool) {
		c.report(diag.InvalidValue, path, valueAt(p), "", format, args...)
		return "", false
	}
	switch {
	case v.kind == kindBad:
		return "", false
	case !v.isString():
		return bad("%s must be a file path relative to the benchmark file; found %s", p.key, v.describe())
	case v.text == "":
		return bad("%s must not be empty", p.key)
	case strings.ContainsFunc(v.text, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return bad("%s must not contain control characters", p.key)
	case strings.HasPrefix(v.text, "/") || strings.HasPrefix(v.text, `\`) || reDrive.MatchString(v.text):
		return bad("%s %q is absolute; write it relative to the benchmark file", p.key, v.text)
	case strings.Contains(v.text, "://"):
		return bad("%s %q is a URL; Benchy reads local files, relative to the benchmark file", p.key, v.text)
	case strings.HasPrefix(v.text, "~"):
		return bad("%s %q starts with ~, which is not expanded; write it relative to the benchmark file", p.key, v.text)
	}
	return v.text, true
}

var (
	systemTypes   = []string{ir.SystemModel, ir.SystemExternal}
	modelKeys     = []string{"type", "provider", "model", "prompt", "parameters"}
	modelRequired = []string{"type", "provider", "model"}
	externalKeys  = []string{"type", "id"}
	systemAllKeys = []string{"type", "provider", "model", "prompt", "parameters", "id"}
)

// system checks the AI-system definition (paper §6): what is evaluated, never how.
func (c *checker) system(root *node) {
	s, sp := c.section(root, "ai-system", diag.InvalidValue, "the AI-system definition")
	if s == nil {
		return
	}
	path := []string{"ai-system"}
	t, tp := s.get("type")
	switch {
	case tp == nil:
		c.keys(s, path, sp.at(), systemAllKeys, []string{"type"})
		return
	case t.kind == kindBad:
		return
	case !t.isString() || (t.text != ir.SystemModel && t.text != ir.SystemExternal):
		c.report(diag.InvalidValue, join(path, "type"), t.at(), c.closest(t.text, systemTypes),
			"ai-system type must be model or external; found %s", t.describe())
		c.keys(s, path, sp.at(), systemAllKeys, nil)
		return
	}
	sys := ir.AISystem{Type: t.text}
	ok := true
	if t.text == ir.SystemExternal {
		c.keys(s, path, sp.at(), externalKeys, externalKeys)
		sys.ID, ok = c.name(s, path, "id")
	} else {
		c.keys(s, path, sp.at(), modelKeys, modelRequired)
		var ok1, ok2 bool
		sys.Provider, ok1 = c.name(s, path, "provider")
		sys.Model, ok2 = c.name(s, path, "model")
		ok = ok1 && ok2
		if _, p := s.get("prompt"); p != nil {
			var okp bool
			sys.Prompt, okp = c.relativePath(p, join(path, "prompt"))
			ok = ok && okp
		}
		if v, p := s.get("parameters"); p != nil {
			var okp bool
			sys.Parameters, okp = c.parameters(v, join(path, "parameters"))
			ok = ok && okp
		}
	}
	if ok {
		c.m.system = sys
	}
}

// name checks an identifier-like string: non-empty, no surrounding whitespace.
func (c *checker) name(s *node, path []string, key string) (string, bool) {
	v, p := s.get(key)
	switch {
	case p == nil || v.kind == kindBad:
		return "", false
	case !v.isString():
		c.report(diag.InvalidValue, join(path, key), valueAt(p), "", "%s must be a string; found %s", key, v.describe())
	case strings.TrimSpace(v.text) == "":
		c.report(diag.InvalidValue, join(path, key), valueAt(p), "", "%s must not be empty", key)
	case strings.ContainsFunc(v.text, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		c.report(diag.InvalidValue, join(path, key), v.at(), "", "%s must not contain line breaks or control characters", key)
	case strings.TrimSpace(v.text) != v.text:
		c.report(diag.InvalidValue, join(path, key), v.at(), strings.TrimSpace(v.text), "%s must not start or end with whitespace", key)
	default:
		return v.text, true
	}
	return "", false
}

// parameters checks the model parameters: a non-empty mapping of scalars passed through to
// the provider unchanged.
func (c *checker) parameters(v *node, path []string) (map[string]any, bool) {
	switch {
	case v.kind == kindBad:
		return nil, false
	case v.kind != kindMap:
		c.report(diag.InvalidValue, path, v.at(), "", "parameters must be a mapping of name: value; found %s", v.describe())
		return nil, false
	case len(v.pairs) == 0:
		c.report(diag.InvalidValue, path, v.at(), "", "parameters is empty; leave it out instead")
		return nil, false
	}
	out := map[string]any{}
	ok := true
	for i := range v.pairs {
		p := &v.pairs[i]
		pp := join(path, p.key)
		x := p.value
		switch {
		case p.keyKind != kindString || p.key == "":
			c.report(diag.InvalidValue, pp, p.at(), "", "parameter names must be non-empty strings; quote %s", p.key)
			ok = false
		case x.kind == kindBad:
			ok = false
		case x.kind == kindString:
			out[p.key] = x.text
		case x.kind == kindBool:
			out[p.key] = x.text == "true" || x.text == "True" || x.text == "TRUE"
		case x.isNumber() && x.exact():
			out[p.key] = x.num
		case x.isNumber():
			msg := "parameter %s must be finite"
			if x.overflows() {
				msg = "parameter %s is too large for a double (at most about 1.8e308); quote it if the provider takes a string"
			} else if !math.IsNaN(x.num) && !math.IsInf(x.num, 0) {
				msg = "parameter %s cannot be represented exactly (integers go up to 2^53); quote it if the provider takes a string"
			}
			c.report(diag.InvalidValue, pp, x.at(), "", msg, p.key)
			ok = false
		default:
			c.report(diag.InvalidValue, pp, valueAt(p), "", "parameter %s must be a string, number or boolean; found %s", p.key, x.describe())
			ok = false
		}
	}
	return out, ok
}
