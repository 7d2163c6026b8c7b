package compiler

import (
	"errors"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ontology"
)

// taskRules checks the program against the task's structural rules (Appendix A.4). Each
// violation concerns one part (input, output or language form) and is reported only when
// that part was itself valid, so one mistake is not reported twice.
func (c *checker) taskRules(root *yamlnode.Node) {
	if c.m.task == "" || c.reg == nil {
		return
	}
	prog := ontology.Program{
		Input:        leaves(c.m.input, nil),
		Output:       leaves(c.m.output, nil),
		LanguagePair: c.langForm == langPair,
	}
	violations, err := c.reg.CheckProgram(c.m.task, prog)
	if errors.Is(err, ontology.ErrUnsupportedTask) {
		return // reported with the task
	}
	b, _ := root.Get("benchmark")
	p, _ := root.Get("program")
	for _, v := range violations {
		var where *yamlnode.Pair
		var path []string
		switch v.Part {
		case ontology.PartInput:
			if !c.inputOK {
				continue
			}
			_, where = p.Get("input")
			path = []string{"program", "input"}
		case ontology.PartOutput:
			if !c.outputOK {
				continue
			}
			_, where = p.Get("output")
			path = []string{"program", "output"}
		case ontology.PartLanguage:
			if c.langForm == langUnknown {
				continue
			}
			_, where = b.Get("language")
			path = []string{"benchmark", "language"}
		}
		c.report(diag.TaskProgramMismatch, path, valueAt(where), "", "%s", v.Message)
	}
}

// leaves flattens checked fields into the ontology's view of them.
func leaves(fields []*field, parent []string) []ontology.Leaf {
	var out []ontology.Leaf
	for _, f := range fields {
		p := join(parent, f.name)
		if f.typ == "object" {
			out = append(out, leaves(f.fields, p)...)
		} else {
			out = append(out, ontology.Leaf{Path: p, Type: f.typ})
		}
	}
	return out
}
