package ontology

import (
	"fmt"
	"strings"
)

// Leaf is one leaf field of a program schema, as the task rules see it.
type Leaf struct {
	Path []string
	Type string // a semantic type name: "string", "enum", "audio", ...
}

// Program is the view of a benchmark that the task rules check: the leaf fields of the input
// and output schemas in declaration order, and whether the language is a {source, target}
// pair.
type Program struct {
	Input, Output []Leaf
	LanguagePair  bool
}

// Part names where a violation lies.
const (
	PartInput    = "input"
	PartOutput   = "output"
	PartLanguage = "language"
)

// Violation is one broken task rule.
type Violation struct {
	Part    string
	Message string
}

// rule is a task's structural validator and its statement in words.
type rule struct {
	text  []string
	check func(p Program) []Violation
}

// CheckProgram applies the task's rules to p. It fails with ErrUnsupportedTask when the task
// has no rule in this Benchy, never skipping validation.
func (r *Registry) CheckProgram(task string, p Program) ([]Violation, error) {
	ru, ok := r.rules[task]
	if !ok || !r.HasTask(task) {
		return nil, fmt.Errorf("%q: %w", task, ErrUnsupportedTask)
	}
	return ru.check(p), nil
}

// v1Rules are the structural validators of ontology 1.0 (Appendix A.4).
var v1Rules = map[string]rule{
	"extract": {
		text:  []string{"no constraint beyond the normal program rules", "language is a single code"},
		check: func(p Program) []Violation { return singleLanguage("extract", p) },
	},
	"classify": {
		text: []string{"exactly one leaf output field", "that field is an enum", "language is a single code"},
		check: func(p Program) []Violation {
			return append(oneOutput("classify", "enum", p), singleLanguage("classify", p)...)
		},
	},
	"transcribe": {
		text: []string{"at least one audio input field", "exactly one leaf output field", "that field is a string", "language is a single code"},
		check: func(p Program) []Violation {
			v := needInput("transcribe", "audio", p)
			v = append(v, oneOutput("transcribe", "string", p)...)
			return append(v, singleLanguage("transcribe", p)...)
		},
	},
	"translate": {
		text: []string{"at least one string input field", "exactly one leaf output field", "that field is a string", "language is {source, target}"},
		check: func(p Program) []Violation {
			v := needInput("translate", "string", p)
			v = append(v, oneOutput("translate", "string", p)...)
			if !p.LanguagePair {
				v = append(v, Violation{PartLanguage, "task translate needs language as a mapping {source: <code>, target: <code>}"})
			}
			return v
		},
	},
}

func oneOutput(task, typ string, p Program) []Violation {
	switch {
	case len(p.Output) != 1:
		return []Violation{{PartOutput, fmt.Sprintf("task %s needs exactly one leaf output field of type %s; the program has %d (%s)", task, typ, len(p.Output), leafNames(p.Output))}}
	case p.Output[0].Type != typ:
		return []Violation{{PartOutput, fmt.Sprintf("task %s needs its output field to be of type %s; %s is %s", task, typ, strings.Join(p.Output[0].Path, "."), p.Output[0].Type)}}
	}
	return nil
}

func needInput(task, typ string, p Program) []Violation {
	for _, l := range p.Input {
		if l.Type == typ {
			return nil
		}
	}
	return []Violation{{PartInput, fmt.Sprintf("task %s needs at least one input field of type %s; the input has %s", task, typ, leafNames(p.Input))}}
}

func singleLanguage(task string, p Program) []Violation {
	if p.LanguagePair {
		return []Violation{{PartLanguage, fmt.Sprintf("task %s takes a single language code; {source, target} is only for translate", task)}}
	}
	return nil
}

func leafNames(leaves []Leaf) string {
	if len(leaves) == 0 {
		return "none"
	}
	names := make([]string, len(leaves))
	for i, l := range leaves {
		names[i] = strings.Join(l.Path, ".") + ": " + l.Type
	}
	return strings.Join(names, ", ")
}
