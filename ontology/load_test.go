package ontology

import (
	"errors"
	"strings"
	"testing"
)

// injected lists a task "summarize" that has no rule in this Benchy. Its claim to be supported
// and its rule text are registry data, which must not be trusted.
const injected = `{
  "version": "1.0",
  "tasks": [
    {"id": "classify", "description": "Assign one label"},
    {"id": "summarize", "description": "Condense a text", "supported": true, "rules": ["be short"]}
  ],
  "domains": [{"id": "general", "description": "Everything"}],
  "languages": [{"code": "en", "name": "English", "native": "English"}]
}`

func TestLoadUnsupportedTask(t *testing.T) {
	r, err := load([]byte(injected), v1Rules)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if got := strings.Join(r.TaskIDs(), ","); got != "classify,summarize" {
		t.Fatalf("TaskIDs() = %s, want classify,summarize", got)
	}
	if !r.HasTask("summarize") {
		t.Errorf("HasTask(summarize) = false")
	}
	byID := map[string]Task{}
	for _, task := range r.Tasks {
		byID[task.ID] = task
	}
	sum := byID["summarize"]
	if sum.Supported {
		t.Errorf("summarize is Supported, want false")
	}
	if sum.Rules == nil || len(sum.Rules) != 0 {
		t.Errorf("summarize Rules = %#v, want an empty, non-nil list", sum.Rules)
	}
	if sum.Description != "Condense a text" {
		t.Errorf("summarize Description = %q", sum.Description)
	}
	if cls := byID["classify"]; !cls.Supported || len(cls.Rules) == 0 {
		t.Errorf("classify = %+v, want Supported with Rules", cls)
	}

	// An unsupported task fails instead of skipping validation, whatever the program.
	for _, p := range []Program{{}, {Output: []Leaf{leaf("string", "summary")}}, {Input: []Leaf{leaf("string", "text")}, Output: []Leaf{leaf("string", "summary")}}} {
		vs, err := r.CheckProgram("summarize", p)
		if !errors.Is(err, ErrUnsupportedTask) {
			t.Errorf("CheckProgram(summarize, %+v) = %+v, %v; want ErrUnsupportedTask", p, vs, err)
		}
	}
	// A supported task in the same registry is still checked.
	if vs, err := r.CheckProgram("classify", Program{Output: []Leaf{leaf("string", "x")}}); err != nil || len(vs) != 1 {
		t.Errorf("CheckProgram(classify) = %+v, %v; want one violation", vs, err)
	}
	// Benchy has a rule for translate, but this registry does not list it.
	if _, err := r.CheckProgram("translate", Program{}); !errors.Is(err, ErrUnsupportedTask) {
		t.Errorf("CheckProgram(translate) on a registry without translate: err = %v, want ErrUnsupportedTask", err)
	}
}

func TestLoadNoRules(t *testing.T) {
	r, err := load([]byte(injected), nil)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	for _, task := range r.Tasks {
		if task.Supported || len(task.Rules) != 0 {
			t.Errorf("task %q = %+v, want unsupported with no rules", task.ID, task)
		}
		if _, err := r.CheckProgram(task.ID, Program{}); !errors.Is(err, ErrUnsupportedTask) {
			t.Errorf("CheckProgram(%q) err = %v, want ErrUnsupportedTask", task.ID, err)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"duplicate task", `{"version":"1.0","tasks":[{"id":"extract"},{"id":"classify"},{"id":"extract"}]}`, `task "extract"`},
		{"duplicate domain", `{"version":"1.0","domains":[{"id":"legal"},{"id":"legal"}]}`, `domain "legal"`},
		{"duplicate language", `{"version":"1.0","languages":[{"code":"en","name":"English"},{"code":"es"},{"code":"en","name":"Anglais"}]}`, `language "en"`},
		{"malformed json", `{"version":"1.0","tasks":[`, ""},
		{"not json", `version: "1.0"`, ""},
		{"empty", ``, ""},
		{"wrong type", `{"version":"1.0","tasks":"extract"}`, ""},
		{"trailing data", `{"version":"1.0"} {}`, ""},
	}
	for _, tt := range tests {
		r, err := load([]byte(tt.data), v1Rules)
		if err == nil {
			t.Errorf("%s: load succeeded with %+v, want an error", tt.name, r)
			continue
		}
		if r != nil {
			t.Errorf("%s: load returned a registry with its error", tt.name)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %q does not mention %q", tt.name, err, tt.want)
		}
	}
}

// TestLoadSameIDAcrossKinds checks that duplicates are per kind: a task and a domain may
// share an identifier.
func TestLoadSameIDAcrossKinds(t *testing.T) {
	data := `{"version":"1.0","tasks":[{"id":"news"}],"domains":[{"id":"news"}],"languages":[{"code":"no","name":"Norwegian","native":"Norsk"}]}`
	r, err := load([]byte(data), v1Rules)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if !r.HasTask("news") || !r.HasDomain("news") || !r.HasLanguage("no") {
		t.Errorf("registry %+v is missing an id", r)
	}
}

func TestEmbeddedRegistryReloads(t *testing.T) {
	r, err := load(registryJSON, v1Rules)
	if err != nil {
		t.Fatalf("load(registryJSON): %v", err)
	}
	if r.Version != Version {
		t.Errorf("embedded registry version = %q, want %q", r.Version, Version)
	}
}
