package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/benchy-eval/benchy/ir"
)

// System is the AI-system as a run took it, recorded beside A.14's ai_system: what it is
// (its IR definition, and for a model the bytes of its prompt), how it was reached (the
// binding and its fingerprint), a short label to show, and Hash, the identity runs of one
// system share: a leaderboard has a row per Hash.
type System struct {
	Label      string      `json:"label"` // the external id, or provider/model
	Definition ir.AISystem `json:"definition"`
	// PromptSHA256 is "sha256:" and the hex digest of the prompt file's bytes, for a model
	// that has one: editing the prompt makes another system.
	PromptSHA256 string `json:"prompt_sha256,omitempty"`
	Binding      string `json:"binding"` // the binding or provider name it ran through
	// BindingFingerprint is "sha256:" and the hex digest of what reaches the system: a
	// command's argv as written and its working directory relative to the workspace, or a
	// provider's kind, base URL and model; never a key or an environment value.
	BindingFingerprint string `json:"binding_fingerprint"`
	// Hash is "sha256:" and the hex digest of the canonical JSON of the definition, the
	// prompt's digest and the binding's fingerprint.
	Hash string `json:"hash"`
}

// Label is the short name of an AI-system: its id, or provider/model.
func Label(s ir.AISystem) string {
	if s.Type == ir.SystemModel {
		return s.Provider + "/" + s.Model
	}
	return s.ID
}

// NewSystem is the system def, with the prompt digest, binding name and fingerprint given,
// its label and hash filled in.
func NewSystem(def ir.AISystem, promptSHA256, binding, fingerprint string) System {
	s := System{Label: Label(def), Definition: def, PromptSHA256: promptSHA256, Binding: binding, BindingFingerprint: fingerprint}
	s.Hash = s.hash()
	return s
}

func (s System) hash() string {
	def, err := json.Marshal(s.Definition)
	if err == nil {
		def, err = ir.Canonicalize(def)
	}
	if err != nil { // parameters are scalars the compiler checked: this is a bug
		panic("engine: an AI-system definition does not serialise: " + err.Error())
	}
	id, _ := json.Marshal(struct {
		Definition  json.RawMessage `json:"definition"`
		Prompt      string          `json:"prompt_sha256"`
		Fingerprint string          `json:"binding_fingerprint"`
	}{def, s.PromptSHA256, s.BindingFingerprint})
	return SHA256(id)
}

// SHA256 is "sha256:" and the hex digest of b.
func SHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
