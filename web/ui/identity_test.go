package ui

import (
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestSystemLabel: the pages name an AI-system as engine.Label does, so that a start's
// notes and a launch's buttons match the label the runs record.
func TestSystemLabel(t *testing.T) {
	for _, c := range []struct {
		sys  api.AISystem
		want string
	}{
		{api.AISystem{Type: "model", Provider: "openai", Model: "gpt-4o"}, "openai/gpt-4o"},
		{api.AISystem{Type: "external", ID: "lang-id"}, "lang-id"},
	} {
		if got := SystemLabel(&c.sys); got != c.want {
			t.Errorf("SystemLabel(%+v) = %q, want %q", c.sys, got, c.want)
		}
	}
}
