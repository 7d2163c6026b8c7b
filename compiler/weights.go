package compiler

import (
	"math"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

// scoring checks the weights and the aggregator (paper §4, Appendix A.3).
func (c *checker) scoring(root *yamlnode.Node) {
	s, sp := c.section(root, "scoring", diag.InvalidValue, "weights and aggregator")
	if s == nil {
		return
	}
	path := []string{"scoring"}
	keys := []string{"weights", "aggregator"}
	c.keys(s, path, sp.Pos(), keys, keys)
	if v, p := s.Get("aggregator"); p != nil && v.Kind != yamlnode.Bad {
		if !v.IsString() || v.Text != ir.AggregatorWeighted {
			c.report(diag.InvalidValue, join(path, "aggregator"), v.Pos(), ir.AggregatorWeighted,
				"unsupported aggregator %s; the only aggregator is %s", v.Describe(), ir.AggregatorWeighted)
		}
	}
	w, wp := s.Get("weights")
	if wp == nil {
		return
	}
	before := c.reported
	wc := weightCheck{checker: c, known: c.m.output != nil}
	wc.mapping(w, c.m.output, join(path, "weights"), nil, wp.Pos())
	if c.reported > before || !c.outputOK {
		return
	}
	// The total must be positive (A.3), which is: some weight is. It is never summed here:
	// finite weights may add up to more than a double holds (two of 1e308), and A.3 allows
	// them; the IR keeps each weight as written.
	if !anyPositive(c.m.output) {
		c.report(diag.InvalidWeight, join(path, "weights"), wp.Pos(), "",
			"all weights are zero; at least one output field needs a positive weight")
	}
}

// weightCheck walks the weight tree beside the output schema.
type weightCheck struct {
	*checker
	known bool // the output schema is available to mirror
}

// mapping checks a weight mapping against fields (the output fields at this level). wpath is
// the diagnostic path, fpath the output path, where the key naming this mapping.
func (w weightCheck) mapping(n *yamlnode.Node, fields []*field, wpath, fpath []string, where yamlnode.Pos) {
	if n.Kind == yamlnode.Bad {
		return
	}
	if n.Kind != yamlnode.Map {
		w.report(diag.InvalidWeight, wpath, n.Pos(), "",
			"%s must be a mapping of weights mirroring the output fields; found %s", wpath[len(wpath)-1], n.Describe())
		return
	}
	names := make([]string, len(fields))
	byName := make(map[string]*field, len(fields))
	for i, f := range fields {
		names[i] = f.name
		byName[f.name] = f
	}
	for i := range n.Pairs {
		p := &n.Pairs[i]
		f := byName[p.Key]
		if f != nil && !f.object && p.Value.IsNumber() && p.Value.Exact() && p.Value.Num >= 0 {
			f.weight = p.Value.Num // the common case, without a path
			continue
		}
		pw, pf := join(wpath, p.Key), join(fpath, p.Key)
		switch {
		case w.known && f == nil:
			w.report(diag.ExtraWeight, pw, p.Pos(), w.closest(p.Key, names),
				"weight for %q, which is not an output field", strings.Join(pf, "."))
		case p.Value.Kind == yamlnode.Bad, f != nil && f.vague:
		case f != nil && f.object:
			if p.Value.Kind != yamlnode.Map {
				w.report(diag.InvalidWeight, pw, valueAt(p), "",
					"%s is an object, not a leaf: weigh each of its fields (%s) instead of giving it one number",
					strings.Join(pf, "."), strings.Join(fieldNames(f.fields), ", "))
				break
			}
			sub := w
			sub.known = w.known && f.fields != nil
			sub.mapping(p.Value, f.fields, pw, pf, p.Pos())
		case f == nil && p.Value.Kind == yamlnode.Map:
			w.mapping(p.Value, nil, pw, pf, p.Pos()) // no schema to mirror: check values only
		case p.Value.Kind == yamlnode.Map:
			w.report(diag.InvalidWeight, pw, p.Value.Pos(), "",
				"%s is a leaf field: its weight is one number, not a mapping", strings.Join(pf, "."))
		default:
			if v, ok := w.number(p, pw); ok && f != nil {
				f.weight = v
			}
		}
	}
	if !w.known {
		return
	}
	for _, f := range fields {
		if _, p := n.Get(f.name); p == nil {
			w.missing(f, wpath, fpath, where)
		}
	}
}

// missing reports every leaf under f as lacking a weight.
func (w weightCheck) missing(f *field, wpath, fpath []string, where yamlnode.Pos) {
	if f.vague {
		return
	}
	pw, pf := join(wpath, f.name), join(fpath, f.name)
	if !f.object {
		w.report(diag.MissingWeight, pw, where, "", "output field %s has no weight; every leaf output field needs exactly one", strings.Join(pf, "."))
		return
	}
	for _, sub := range f.fields {
		w.missing(sub, wpath, pf, where)
	}
}

// number checks one leaf weight: a finite number >= 0 that JSON holds exactly.
func (w weightCheck) number(p *yamlnode.Pair, path []string) (float64, bool) {
	v := p.Value
	switch {
	case v.Kind == yamlnode.Bad:
	case !v.IsNumber():
		w.report(diag.InvalidWeight, path, valueAt(p), "", "a weight must be a number; found %s", v.Describe())
	case v.Overflows():
		w.report(diag.InvalidWeight, path, v.Pos(), "", "weight %s is too large for a double (at most about 1.8e308)", v.Text)
	case math.IsNaN(v.Num) || math.IsInf(v.Num, 0):
		w.report(diag.InvalidWeight, path, v.Pos(), "", "a weight must be finite; found %s", v.Text)
	case !v.Exact():
		w.report(diag.InvalidWeight, path, v.Pos(), "", "weight %s cannot be represented exactly: integers go up to 2^53, floats from about 1e-308 to 1e308", v.Text)
	case v.Num < 0:
		w.report(diag.InvalidWeight, path, v.Pos(), "", "weights must be >= 0; found %s", v.Text)
	default:
		return v.Num, true
	}
	return 0, false
}

func fieldNames(fields []*field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.name
	}
	return out
}

// anyPositive reports whether a leaf under fields has a positive weight.
func anyPositive(fields []*field) bool {
	for _, f := range fields {
		if f.typ == ir.TypeObject && anyPositive(f.fields) || f.typ != ir.TypeObject && f.weight > 0 {
			return true
		}
	}
	return false
}
