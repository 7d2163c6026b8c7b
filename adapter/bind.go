package adapter

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// Bound is a benchmark's AI-system bound to this machine: the adapters' factory, the
// binding's name, and what identifies the system as run (engine.System): the fingerprint
// of what reaches it and, for a model, the digest of its prompt's bytes.
type Bound struct {
	Factory      engine.Factory
	Name         string // the binding or provider
	Fingerprint  string // engine.System.BindingFingerprint
	PromptSHA256 string // "" without a prompt file
}

// System is the AI-system of b as it is bound.
func (bd Bound) System(b *ir.Benchmark) engine.System {
	return engine.NewSystem(b.AISystem, bd.PromptSHA256, bd.Name, bd.Fingerprint)
}

// Bind is FactoryIn with the system's identity: the fingerprint of a command binding is
// its argv as the runtime file writes it and its working directory relative to
// paths.Workspace (absolute when outside it), so that moving the workspace keeps it; an
// http binding's is its URL with any token in it masked; a model's, its provider's kind,
// base URL and the model. No key and no environment value enters it.
func (r *Runtime) Bind(b *ir.Benchmark, benchDir string, paths engine.Paths, log io.Writer) (Bound, error) {
	sys := b.AISystem
	switch sys.Type {
	case ir.SystemExternal:
		bd := r.binding(sys.ID)
		if bd == nil {
			return Bound{}, r.missing(sys.ID)
		}
		out := Bound{Name: bd.name, Fingerprint: bd.fingerprint(paths.Workspace)}
		if bd.command == nil {
			out.Factory = bd.httpFactory()
			return out, nil
		}
		if err := bd.installed(); err != nil {
			return Bound{}, err
		}
		out.Factory = bd.commandFactory(log)
		return out, nil
	case ir.SystemModel:
		return r.modelFactory(b, benchDir, paths)
	}
	return Bound{}, engine.NoBinding("unknown AI-system type %q", sys.Type)
}

// fingerprint is the binding's, by the rule of Bind.
func (b *binding) fingerprint(workspace string) string {
	if b.url != "" {
		return fingerprint(map[string]any{"kind": "http", "url": b.secrets.String(b.url)})
	}
	dir := b.dir
	if ws, err := filepath.Abs(workspace); err == nil && workspace != "" {
		if rel, err := filepath.Rel(ws, b.dir); err == nil && filepath.IsLocal(rel) {
			dir = filepath.ToSlash(rel)
		}
	}
	return fingerprint(map[string]any{"kind": "command", "argv": b.written, "dir": dir})
}

func fingerprint(v map[string]any) string {
	body, _ := json.Marshal(v) // sorted keys, strings only
	return engine.SHA256(body)
}
