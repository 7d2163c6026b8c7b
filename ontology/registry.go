package ontology

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/internal/suggest"
)

// Version is the only registry version this Benchy supports.
const Version = "1.0"

//go:embed registry.json
var registryJSON []byte

// Entry is a task or domain: an identifier and a one-line description.
type Entry struct {
	ID          string `json:"id"`
	Description string `json:"description"`
}

// Language is an ISO 639-1 language with its English and native names.
type Language struct {
	Code   string `json:"code"`
	Name   string `json:"name"`
	Native string `json:"native"`
}

// Task is a registry task together with the program rules Benchy enforces for it. Rules is
// empty for a task the registry lists but Benchy cannot validate.
type Task struct {
	Entry
	Supported bool     `json:"supported"`
	Rules     []string `json:"rules"`
}

// Registry is one version of the ontology. It is read-only after loading.
type Registry struct {
	Version   string     `json:"version"`
	Tasks     []Task     `json:"tasks"`
	Domains   []Entry    `json:"domains"`
	Languages []Language `json:"languages"`

	rules     map[string]rule
	taskIDs   []string
	domainIDs []string
	langCodes []string
	langNames map[string]string // lower-case English or native name -> code
}

var v1 = mustLoad(registryJSON, v1Rules)

// Lookup returns the registry for version, or false when Benchy does not support it.
func Lookup(version string) (*Registry, bool) {
	if version == Version {
		return v1, true
	}
	return nil, false
}

// Versions lists the supported registry versions.
func Versions() []string { return []string{Version} }

func mustLoad(data []byte, rules map[string]rule) *Registry {
	r, err := load(data, rules)
	if err != nil {
		panic("ontology: embedded registry: " + err.Error())
	}
	return r
}

// Load parses registry data (the shape of registry.json) and binds the task rules Benchy
// has for its version. Tasks without a rule load as unsupported, and compiling a benchmark
// of such a task fails. It lets a registry grow ahead of this Benchy without checks being
// skipped.
func Load(data []byte) (*Registry, error) {
	r, err := load(data, v1Rules)
	if err != nil {
		return nil, err
	}
	if r.Version != Version {
		return nil, fmt.Errorf("ontology: registry version %q is not supported (want %q)", r.Version, Version)
	}
	return r, nil
}

// load parses registry data and binds each task to its rule, if Benchy has one.
func load(data []byte, rules map[string]rule) (*Registry, error) {
	var raw struct {
		Version   string     `json:"version"`
		Tasks     []Entry    `json:"tasks"`
		Domains   []Entry    `json:"domains"`
		Languages []Language `json:"languages"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	r := &Registry{Version: raw.Version, Domains: raw.Domains, Languages: raw.Languages, rules: rules, langNames: map[string]string{}}
	seen := map[string]bool{}
	for _, t := range raw.Tasks {
		if seen["task:"+t.ID] {
			return nil, fmt.Errorf("task %q listed twice", t.ID)
		}
		seen["task:"+t.ID] = true
		task := Task{Entry: t, Rules: []string{}}
		if ru, ok := rules[t.ID]; ok {
			task.Supported = true
			task.Rules = ru.text
		}
		r.Tasks = append(r.Tasks, task)
		r.taskIDs = append(r.taskIDs, t.ID)
	}
	for _, d := range raw.Domains {
		if seen["domain:"+d.ID] {
			return nil, fmt.Errorf("domain %q listed twice", d.ID)
		}
		seen["domain:"+d.ID] = true
		r.domainIDs = append(r.domainIDs, d.ID)
	}
	for _, l := range raw.Languages {
		if seen["lang:"+l.Code] {
			return nil, fmt.Errorf("language %q listed twice", l.Code)
		}
		seen["lang:"+l.Code] = true
		r.langCodes = append(r.langCodes, l.Code)
		for _, name := range []string{strings.ToLower(l.Name), strings.ToLower(l.Native)} {
			if other, taken := r.langNames[name]; taken && other != l.Code {
				r.langNames[name] = "" // a name two languages share suggests neither
			} else {
				r.langNames[name] = l.Code
			}
		}
	}
	return r, nil
}

// TaskIDs, DomainIDs and LanguageCodes list the identifiers in registry order. Each call
// returns a fresh copy: the registry is shared and must not change under its users.
func (r *Registry) TaskIDs() []string       { return slices.Clone(r.taskIDs) }
func (r *Registry) DomainIDs() []string     { return slices.Clone(r.domainIDs) }
func (r *Registry) LanguageCodes() []string { return slices.Clone(r.langCodes) }

// HasTask, HasDomain and HasLanguage report registry membership, exactly (case-sensitive).
func (r *Registry) HasTask(id string) bool       { return contains(r.taskIDs, id) }
func (r *Registry) HasDomain(id string) bool     { return contains(r.domainIDs, id) }
func (r *Registry) HasLanguage(code string) bool { return contains(r.langCodes, code) }

func contains(list []string, s string) bool { return slices.Contains(list, s) }

// withdrawn maps ISO 639-1 codes that were withdrawn to their replacements.
var withdrawn = map[string]string{"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}

// SuggestTask, SuggestDomain and SuggestLanguage return the nearest identifier to a
// misspelt one, or "".
func (r *Registry) SuggestTask(s string) string   { return suggest.Closest(s, r.taskIDs) }
func (r *Registry) SuggestDomain(s string) string { return suggest.Closest(s, r.domainIDs) }

// SuggestLanguage understands language names ("Spanish", "español"), region-tagged codes
// ("es-ES", "en_US"), upper case ("EN") and withdrawn codes ("iw" for he). It does not guess
// from edit distance: between two-letter codes a one-letter slip names an unrelated language.
func (r *Registry) SuggestLanguage(s string) string {
	lower := strings.ToLower(s)
	if code := r.langNames[lower]; code != "" {
		return code
	}
	if code := withdrawn[lower]; code != "" {
		return code
	}
	if len(lower) >= 2 && r.HasLanguage(lower[:2]) && (len(lower) == 2 || lower[2] == '-' || lower[2] == '_') {
		return lower[:2]
	}
	return ""
}

// ErrUnsupportedTask is returned by CheckProgram for a task the registry lists but Benchy has
// no rule for.
var ErrUnsupportedTask = errors.New("task has no program validator in this Benchy")
