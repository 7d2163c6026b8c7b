package compiler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
)

// Top-level keys, in canonical order (Appendix A.1).
var rootKeys = []string{"version", "ontology_version", "benchmark", "program", "scoring", "data", "ai-system"}

// model is what the validate stage hands to lower: every part checked.
type model struct {
	version, ontologyVersion string
	task, domain             string
	language                 ir.Language
	input, output            []*field
	dataPath                 string
	system                   ir.AISystem
}

// checker is the validate stage. It walks the node tree in document order and collects
// every independent problem.
type checker struct {
	lookup func(version string) (*ontology.Registry, bool)
	reg    *ontology.Registry // nil when ontology_version is unsupported
	diags  diag.List
	// form of benchmark.language, known even when its codes are not: the task rules need it.
	langForm langForm
	// whether program.input and program.output are fully valid.
	inputOK, outputOK bool
	m                 model
	suggestWork       int // edit-distance cells spent on suggestions (see maxSuggestWork)
	reported          int // diagnostics reported, written down or not
	dropped           int // diagnostics not written down, past maxCollected
}

type langForm int

const (
	langUnknown langForm = iota
	langCode
	langPair
)

func join(path []string, key ...string) []string {
	return append(path[:len(path):len(path)], key...)
}

func (c *checker) report(code diag.Code, path []string, where yamlnode.Pos, suggestion, format string, args ...any) {
	c.reported++
	if len(c.diags) >= yamlnode.MaxCollected {
		c.dropped++
		return
	}
	if path == nil {
		path = []string{}
	}
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = yamlnode.Clip(s)
		}
	}
	c.diags = append(c.diags, diag.Diagnostic{
		Phase: diag.PhaseValidate, Code: code, Path: path,
		Message: fmt.Sprintf(format, args...), Line: where.Line, Column: where.Col,
		Suggestion: suggestion,
	})
}

// closest is suggest.Closest within the compile's suggestion budget.
func (c *checker) closest(word string, candidates []string) string {
	return c.suggestion(word, candidates, func() string { return suggest.Closest(word, candidates) })
}

// suggestion runs find, a search for word among candidates, unless word is longer than any
// name (no typo of a name is 256 bytes long) or the search would take the compile past
// maxSuggestWork: suggestions cost the product of the word's and candidates' lengths.
func (c *checker) suggestion(word string, candidates []string, find func() string) string {
	if len(word) > maxSuggestLen || c.suggestWork >= maxSuggestWork {
		return ""
	}
	work := (len(word) + 1) * maxSuggestLen // searches without a list (languages) cost about one candidate
	for _, s := range candidates {
		work += (len(word)+1)*(len(s)+1) + 64
	}
	if c.suggestWork+work > maxSuggestWork {
		c.suggestWork = maxSuggestWork // spent: later searches do not even add up their lists
		return ""
	}
	c.suggestWork += work
	return find()
}

// check validates the whole document.
func (c *checker) check(root *yamlnode.Node) {
	if root.Kind == yamlnode.Null {
		root = &yamlnode.Node{Kind: yamlnode.Map, Line: 1, Col: 1} // an empty file lacks every key
	}
	if root.Kind != yamlnode.Map {
		c.report(diag.InvalidValue, nil, root.Pos(), "",
			"a benchmark is a mapping with the keys %s; found %s", strings.Join(rootKeys, ", "), root.Describe())
		return
	}
	c.keys(root, nil, root.Pos(), rootKeys, rootKeys)
	if v, p := root.Get("version"); p != nil && v.Kind != yamlnode.Bad {
		c.m.version = c.versionValue(v, []string{"version"}, diag.UnsupportedVersion, ir.SpecVersion)
	}
	if v, p := root.Get("ontology_version"); p != nil && v.Kind != yamlnode.Bad {
		c.m.ontologyVersion = c.versionValue(v, []string{"ontology_version"}, diag.UnsupportedOntologyVersion, ontology.Version)
		if c.m.ontologyVersion != "" || v.IsNumber() && v.Num == 1 {
			// An unquoted 1.0 is reported, but plainly means 1.0: check the rest against it.
			c.reg, _ = c.lookup(ontology.Version)
		}
	}
	c.benchmark(root)
	c.program(root)
	c.scoring(root)
	c.data(root)
	c.system(root)
	c.taskRules(root)
}

// keys reports unknown keys of a mapping and the required keys it lacks. Missing keys are
// reported at where, the key that names the mapping.
func (c *checker) keys(n *yamlnode.Node, path []string, where yamlnode.Pos, allowed, required []string) {
	var meant []string // keys that a misspelt key was taken for: not reported missing again
	keys := strings.Join(allowed, ", ")
	for i := range n.Pairs {
		p := &n.Pairs[i]
		if p.KeyKind != yamlnode.String {
			c.report(diag.UnknownKey, join(path, p.Key), p.Pos(), "",
				"key %s is not a string; %s takes the keys %s", p.Key, sectionName(path), keys)
			continue
		}
		if !slices.Contains(allowed, p.Key) {
			hint := c.closest(p.Key, allowed)
			c.report(diag.UnknownKey, join(path, p.Key), p.Pos(), hint,
				"unknown key %q; %s takes the keys %s", p.Key, sectionName(path), keys)
			meant = append(meant, hint)
		}
	}
	for _, k := range required {
		if _, p := n.Get(k); p == nil && !n.Partial && !slices.Contains(meant, k) {
			c.report(diag.MissingKey, join(path, k), where, "", "%s lacks the required key %q", sectionName(path), k)
		}
	}
}

func sectionName(path []string) string {
	if len(path) == 0 {
		return "the benchmark"
	}
	return strings.Join(path, ".")
}

// section returns the mapping under key, reporting a value of another kind.
func (c *checker) section(parent *yamlnode.Node, key string, code diag.Code, what string) (*yamlnode.Node, *yamlnode.Pair) {
	v, p := parent.Get(key)
	if p == nil || v.Kind == yamlnode.Bad {
		return nil, nil
	}
	if v.Kind != yamlnode.Map {
		c.report(code, []string{key}, v.Pos(), "", "%s must be a mapping of %s; found %s", key, what, v.Describe())
		return nil, nil
	}
	return v, p
}

// versionValue checks that v is the string want and returns it; a number written as want
// gets told to quote it.
func (c *checker) versionValue(v *yamlnode.Node, path []string, code diag.Code, want string) string {
	if v.IsString() && v.Text == want {
		return want
	}
	if v.IsNumber() && strconv.FormatFloat(v.Num, 'f', -1, 64) == strings.TrimSuffix(want, ".0") {
		c.report(code, path, v.Pos(), `"`+want+`"`,
			"%s must be the string %q, but %s is a number here; quote it", path[0], want, v.Text)
		return ""
	}
	c.report(code, path, v.Pos(), "", "unsupported %s: found %s; this Benchy supports %q", path[0], v.Describe(), want)
	return ""
}

// benchmark checks the classification: task, domain and language (paper §3).
func (c *checker) benchmark(root *yamlnode.Node) {
	b, bp := c.section(root, "benchmark", diag.InvalidValue, "task, domain and language")
	if b == nil {
		return
	}
	path := []string{"benchmark"}
	keys := []string{"task", "domain", "language"}
	c.keys(b, path, bp.Pos(), keys, keys)
	if v, p := b.Get("task"); p != nil && v.Kind != yamlnode.Bad {
		c.m.task = c.registryValue(v, join(path, "task"), diag.UnknownTask, "task", func(r *ontology.Registry) ([]string, func(string) string) {
			return r.TaskIDs(), r.SuggestTask
		})
		if c.m.task != "" {
			for _, t := range c.reg.Tasks {
				if t.ID == c.m.task && !t.Supported {
					c.report(diag.UnsupportedTask, join(path, "task"), v.Pos(), "",
						"task %q is in ontology %s but this Benchy has no program validator for it, so it cannot be compiled", t.ID, c.reg.Version)
					c.m.task = ""
				}
			}
		}
	}
	if v, p := b.Get("domain"); p != nil && v.Kind != yamlnode.Bad {
		c.m.domain = c.registryValue(v, join(path, "domain"), diag.UnknownDomain, "domain", func(r *ontology.Registry) ([]string, func(string) string) {
			return r.DomainIDs(), r.SuggestDomain
		})
	}
	if v, p := b.Get("language"); p != nil {
		c.language(v, join(path, "language"))
	}
}

// registryValue checks v against a registry list and returns it when it is a member.
func (c *checker) registryValue(v *yamlnode.Node, path []string, code diag.Code, what string, list func(*ontology.Registry) ([]string, func(string) string)) string {
	if !v.IsString() {
		c.report(code, path, v.Pos(), "", "%s must be a %s identifier; found %s", what, what, v.Describe())
		return ""
	}
	if c.reg == nil {
		return "" // no registry to check against; ontology_version is reported already
	}
	ids, suggestFn := list(c.reg)
	if !slices.Contains(ids, v.Text) {
		hint := c.suggestion(v.Text, ids, func() string { return suggestFn(v.Text) })
		c.report(code, path, v.Pos(), hint, "unknown %s %q in ontology %s", what, v.Text, c.reg.Version)
		return ""
	}
	return v.Text
}

// language checks a single code or a {source, target} pair; which form the task needs is a
// task rule, checked later.
func (c *checker) language(v *yamlnode.Node, path []string) {
	switch v.Kind {
	case yamlnode.Bad:
	case yamlnode.Map:
		c.langForm = langPair
		keys := []string{"source", "target"}
		c.keys(v, path, v.Pos(), keys, keys)
		src, sp := v.Get("source")
		dst, dp := v.Get("target")
		var s, t string
		if sp != nil {
			s = c.languageCode(src, join(path, "source"))
		}
		if dp != nil {
			t = c.languageCode(dst, join(path, "target"))
		}
		if s != "" && t != "" {
			c.m.language = ir.Language{Source: s, Target: t}
		}
	default:
		if v.IsString() {
			c.langForm = langCode
		}
		if code := c.languageCode(v, path); code != "" {
			c.m.language = ir.Language{Code: code}
		}
	}
}

func (c *checker) languageCode(v *yamlnode.Node, path []string) string {
	if v.Kind == yamlnode.Bad {
		return ""
	}
	if !v.IsString() {
		c.report(diag.UnknownLanguage, path, v.Pos(), "",
			"language must be an ISO 639-1 code such as en, or {source, target} for translate; found %s", v.Describe())
		return ""
	}
	if c.reg == nil {
		return ""
	}
	if !c.reg.HasLanguage(v.Text) {
		hint := c.suggestion(v.Text, nil, func() string { return c.reg.SuggestLanguage(v.Text) })
		if src, dst, ok := strings.Cut(v.Text, "-"); ok && c.m.task == "translate" && c.reg.HasLanguage(src) && c.reg.HasLanguage(dst) {
			hint = "{source: " + src + ", target: " + dst + "}" // the paper's /translate/general/es-en
			c.langForm = langUnknown                            // the hint says it all; no second diagnostic
		}
		c.report(diag.UnknownLanguage, path, v.Pos(), hint,
			"unknown language %q: languages are ISO 639-1 two-letter codes in ontology %s", v.Text, c.reg.Version)
		return ""
	}
	return v.Text
}
