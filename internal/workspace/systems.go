package workspace

import (
	"fmt"
	"maps"
	"strings"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// Choice is one AI-system to run a benchmark against in place of the one its file defines
// (benchy run --system, --model, --system-file; api.SystemChoice): exactly one of System,
// Model, YAML and Own. WithSystem resolves it, the same for the CLI and the server, so that
// a system chosen either way is the same run.
type Choice struct {
	System string // the id of an external AI-system, bound in the runtime file
	Model  string // PROVIDER/MODEL: a model of a runtime provider
	// YAML is a system file's text: one ai-system: mapping (compiler.CompileSystem). Its
	// prompt, if any, is a path relative to the benchmark's folder, as the benchmark's own
	// prompt is, not to the system file's.
	YAML []byte
	File string // the system file's name, the File of its diagnostics
	Own  bool   // the benchmark's own AI-system
}

// BadChoice is a choice that names no AI-system: none or several of its fields, a model
// that is not PROVIDER/MODEL, an id or a name the compiler's rules refuse.
type BadChoice struct{ Reason string }

func (e *BadChoice) Error() string { return e.Reason }

// Load compiles the benchmark of src, or checks its IR, as Prepare does, without binding
// its AI-system: the benchmark choices are resolved against (WithSystem), whose own system
// may be bound nowhere.
func Load(src Source) (*ir.Benchmark, error) {
	if src.IR != nil {
		return src.IR, nil
	}
	return load(src)
}

// WithSystem is benchmark b, named name, with the AI-system of choice c in place of its
// own, as a Source for Prepare: a copy whose canonical bytes and ir_hash are computed
// again, so that each system's run stores its own effective IR. Its benchmark_hash is b's
// (ir.BenchmarkHash leaves ai_system out). A model chosen by --model PROVIDER/MODEL takes
// the prompt and parameters of b's own system when that is a model, so that one prompt is
// put to several models; PROVIDER/MODEL splits at the first slash, so a model's name may
// hold more (local/meta/llama is the model meta/llama of the provider local). A system
// file that does not compile is a diag.List error in c.File; any other refusal is a
// *BadChoice. Whether the runtime file binds the system is Prepare's to say.
func WithSystem(name string, b *ir.Benchmark, c Choice) (Source, error) {
	sys, err := chosen(b.AISystem, c)
	if err != nil {
		return Source{}, err
	}
	eff := *b
	eff.AISystem = sys
	canonical, err := ir.Marshal(&eff)
	if err != nil {
		return Source{}, fmt.Errorf("%s: %w", name, err)
	}
	return Source{Name: name, IR: &eff, Canonical: canonical, IRHash: ir.Hash(canonical)}, nil
}

// chosen is the AI-system c names, given the benchmark's own.
func chosen(own ir.AISystem, c Choice) (ir.AISystem, error) {
	n := 0
	for _, set := range []bool{c.System != "", c.Model != "", c.YAML != nil, c.Own} {
		if set {
			n++
		}
	}
	if n != 1 {
		return ir.AISystem{}, &BadChoice{"a system is exactly one of system (an external AI-system's id), model (PROVIDER/MODEL), yaml (a system file's text) and own"}
	}
	var sys ir.AISystem
	switch {
	case c.Own:
		return own, nil
	case c.YAML != nil:
		s, ds := compiler.CompileSystem(c.YAML)
		if len(ds) > 0 {
			return ir.AISystem{}, ds.In(c.File).Err()
		}
		return s, nil
	case c.System != "":
		sys = ir.AISystem{Type: ir.SystemExternal, ID: c.System}
	default:
		provider, model, _ := strings.Cut(c.Model, "/")
		if provider == "" || model == "" {
			return ir.AISystem{}, &BadChoice{fmt.Sprintf("model %q is not PROVIDER/MODEL: a provider of the runtime file, a slash, then the model's name", c.Model)}
		}
		sys = ir.AISystem{Type: ir.SystemModel, Provider: provider, Model: model}
		if own.Type == ir.SystemModel {
			sys.Prompt, sys.Parameters = own.Prompt, maps.Clone(own.Parameters)
		}
	}
	if ds := compiler.VerifySystem(sys); len(ds) > 0 {
		return ir.AISystem{}, &BadChoice{refusal(c, ds)}
	}
	return sys, nil
}

// refusal says why the compiler's rules refuse a system given by its parts: its
// diagnostics point into a text nobody wrote, so only their messages are told.
func refusal(c Choice, ds diag.List) string {
	what := fmt.Sprintf("system %q", c.System)
	if c.Model != "" {
		what = fmt.Sprintf("model %q", c.Model)
	}
	msgs := make([]string, len(ds))
	for i, d := range ds {
		msgs[i] = d.Message
	}
	return what + ": " + strings.Join(msgs, "; ")
}
