package compiler

import (
	"math"
	"regexp"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

// data checks the data section: exactly a relative path (paper §5).
func (c *checker) data(root *yamlnode.Node) {
	d, dp := c.section(root, "data", diag.InvalidValue, "the dataset path")
	if d == nil {
		return
	}
	c.keys(d, []string{"data"}, dp.Pos(), []string{"path"}, []string{"path"})
	if _, p := d.Get("path"); p != nil {
		c.m.dataPath, _ = c.relativePath(p, []string{"data", "path"})
	}
}

var reDrive = regexp.MustCompile(`^[A-Za-z]:`)

// relativePath checks a path written relative to the benchmark file. Where it points is the
// engine's business; the compiler only checks its form, since it reads no files.
func (c *checker) relativePath(p *yamlnode.Pair, path []string) (string, bool) {
	v := p.Value
	bad := func(format string, args ...any) (string, bool) {
		c.report(diag.InvalidValue, path, valueAt(p), "", format, args...)
		return "", false
	}
	switch {
	case v.Kind == yamlnode.Bad:
		return "", false
	case !v.IsString():
		return bad("%s must be a file path relative to the benchmark file; found %s", p.Key, v.Describe())
	case v.Text == "":
		return bad("%s must not be empty", p.Key)
	case len(v.Text) > maxPathLen: // before any message that would quote it
		c.report(diag.TooLarge, path, valueAt(p), "", "%s is %d bytes long; Benchy accepts at most %d, as the system opens no longer path", p.Key, len(v.Text), maxPathLen)
		return "", false
	case strings.ContainsFunc(v.Text, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return bad("%s must not contain control characters", p.Key)
	case strings.HasPrefix(v.Text, "/") || strings.HasPrefix(v.Text, `\`) || reDrive.MatchString(v.Text):
		return bad("%s %q is absolute; write it relative to the benchmark file", p.Key, v.Text)
	case strings.Contains(v.Text, "://"):
		return bad("%s %q is a URL; Benchy reads local files, relative to the benchmark file", p.Key, v.Text)
	case strings.HasPrefix(v.Text, "~"):
		return bad("%s %q starts with ~, which is not expanded; write it relative to the benchmark file", p.Key, v.Text)
	}
	return v.Text, true
}

// The bounds of an AI-system's definition. It is stored with every run (its IR, its
// system, its report), so a definition of megabytes would be copied into every run and
// every listing of runs; these leave room for any real model name or parameter (a system
// prompt belongs in the prompt file, which is hashed, not copied).
const (
	maxNameLen      = 256  // bytes of an id, a provider or a model
	maxParameters   = 64   // parameters of a model
	maxParamNameLen = 128  // bytes of a parameter's name
	maxParamLen     = 4096 // bytes of a parameter's string value
	maxPathLen      = 4096 // bytes of a prompt's or the dataset's path (Linux's PATH_MAX)
)

var (
	systemTypes   = []string{ir.SystemModel, ir.SystemExternal}
	modelKeys     = []string{"type", "provider", "model", "prompt", "parameters"}
	modelRequired = []string{"type", "provider", "model"}
	externalKeys  = []string{"type", "id"}
	systemAllKeys = []string{"type", "provider", "model", "prompt", "parameters", "id"}
)

// system checks the AI-system definition (paper §6): what is evaluated, never how.
func (c *checker) system(root *yamlnode.Node) {
	s, sp := c.section(root, "ai-system", diag.InvalidValue, "the AI-system definition")
	if s == nil {
		return
	}
	path := []string{"ai-system"}
	t, tp := s.Get("type")
	switch {
	case tp == nil:
		c.keys(s, path, sp.Pos(), systemAllKeys, []string{"type"})
		return
	case t.Kind == yamlnode.Bad:
		return
	case !t.IsString() || (t.Text != ir.SystemModel && t.Text != ir.SystemExternal):
		c.report(diag.InvalidValue, join(path, "type"), t.Pos(), c.closest(t.Text, systemTypes),
			"ai-system type must be model or external; found %s", t.Describe())
		c.keys(s, path, sp.Pos(), systemAllKeys, nil)
		return
	}
	sys := ir.AISystem{Type: t.Text}
	ok := true
	if t.Text == ir.SystemExternal {
		c.keys(s, path, sp.Pos(), externalKeys, externalKeys)
		sys.ID, ok = c.name(s, path, "id")
	} else {
		c.keys(s, path, sp.Pos(), modelKeys, modelRequired)
		var ok1, ok2 bool
		sys.Provider, ok1 = c.name(s, path, "provider")
		sys.Model, ok2 = c.name(s, path, "model")
		ok = ok1 && ok2
		if _, p := s.Get("prompt"); p != nil {
			var okp bool
			sys.Prompt, okp = c.relativePath(p, join(path, "prompt"))
			ok = ok && okp
		}
		if v, p := s.Get("parameters"); p != nil {
			var okp bool
			sys.Parameters, okp = c.parameters(v, join(path, "parameters"))
			ok = ok && okp
		}
	}
	if ok {
		c.m.system = sys
	}
}

// name checks an identifier-like string: non-empty, no surrounding whitespace, at most
// maxNameLen bytes.
func (c *checker) name(s *yamlnode.Node, path []string, key string) (string, bool) {
	v, p := s.Get(key)
	switch {
	case p == nil || v.Kind == yamlnode.Bad:
		return "", false
	case !v.IsString():
		c.report(diag.InvalidValue, join(path, key), valueAt(p), "", "%s must be a string; found %s", key, v.Describe())
	case len(v.Text) > maxNameLen: // before any check that would quote it
		c.report(diag.TooLarge, join(path, key), v.Pos(), "", "%s is %d bytes long; Benchy accepts at most %d", key, len(v.Text), maxNameLen)
	case strings.TrimSpace(v.Text) == "":
		c.report(diag.InvalidValue, join(path, key), valueAt(p), "", "%s must not be empty", key)
	case strings.ContainsFunc(v.Text, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		c.report(diag.InvalidValue, join(path, key), v.Pos(), "", "%s must not contain line breaks or control characters", key)
	case strings.TrimSpace(v.Text) != v.Text:
		c.report(diag.InvalidValue, join(path, key), v.Pos(), strings.TrimSpace(v.Text), "%s must not start or end with whitespace", key)
	default:
		return v.Text, true
	}
	return "", false
}

// parameters checks the model parameters: a non-empty mapping of scalars passed through to
// the provider unchanged, at most maxParameters of them, names and string values bounded.
func (c *checker) parameters(v *yamlnode.Node, path []string) (map[string]any, bool) {
	switch {
	case v.Kind == yamlnode.Bad:
		return nil, false
	case v.Kind != yamlnode.Map:
		c.report(diag.InvalidValue, path, v.Pos(), "", "parameters must be a mapping of name: value; found %s", v.Describe())
		return nil, false
	case len(v.Pairs) == 0:
		c.report(diag.InvalidValue, path, v.Pos(), "", "parameters is empty; leave it out instead")
		return nil, false
	}
	out := map[string]any{}
	ok := true
	if len(v.Pairs) > maxParameters {
		p := &v.Pairs[maxParameters]
		c.report(diag.TooLarge, path, p.Pos(), "", "parameters has %d entries; Benchy accepts at most %d", len(v.Pairs), maxParameters)
		ok = false
	}
	for i := range v.Pairs {
		p := &v.Pairs[i]
		pp := join(path, p.Key)
		x := p.Value
		switch {
		case len(p.Key) > maxParamNameLen: // its path is the mapping's: the name is not quoted
			c.report(diag.TooLarge, path, p.Pos(), "", "a parameter name is %d bytes long; Benchy accepts at most %d", len(p.Key), maxParamNameLen)
			ok = false
		case p.KeyKind != yamlnode.String || p.Key == "":
			c.report(diag.InvalidValue, pp, p.Pos(), "", "parameter names must be non-empty strings; quote %s", p.Key)
			ok = false
		case x.Kind == yamlnode.Bad:
			ok = false
		case x.Kind == yamlnode.String && len(x.Text) > maxParamLen:
			c.report(diag.TooLarge, pp, x.Pos(), "", "parameter %s is %d bytes long; Benchy accepts at most %d (a long text belongs in the prompt file)", p.Key, len(x.Text), maxParamLen)
			ok = false
		case x.Kind == yamlnode.String:
			out[p.Key] = x.Text
		case x.Kind == yamlnode.Bool:
			out[p.Key] = x.Text == "true" || x.Text == "True" || x.Text == "TRUE"
		case x.IsNumber() && x.Exact():
			out[p.Key] = x.Num
		case x.IsNumber():
			msg := "parameter %s must be finite"
			if x.Overflows() {
				msg = "parameter %s is too large for a double (at most about 1.8e308); quote it if the provider takes a string"
			} else if !math.IsNaN(x.Num) && !math.IsInf(x.Num, 0) {
				msg = "parameter %s cannot be represented exactly (integers go up to 2^53); quote it if the provider takes a string"
			}
			c.report(diag.InvalidValue, pp, x.Pos(), "", msg, p.Key)
			ok = false
		default:
			c.report(diag.InvalidValue, pp, valueAt(p), "", "parameter %s must be a string, number or boolean; found %s", p.Key, x.Describe())
			ok = false
		}
	}
	return out, ok
}
