package workspace

import (
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/ir"
)

// Waiting says whether the plan's requests wait for their provider's rate limit, since
// when, and why ("tokens per minute", "the provider's tokens limit"): what the runs page
// shows of a running model run. The limit is the provider's, shared by every run sending
// to it, so that two runs of one provider wait together. A plan of another AI-system never
// waits. It makes one adapter from the plan's factory, which for a model is a value, no
// process and no connection.
func (p *Plan) Waiting() (since time.Time, why string, ok bool) {
	if p == nil || p.IR == nil || p.IR.AISystem.Type != ir.SystemModel || p.Factory == nil {
		return time.Time{}, "", false
	}
	a, err := p.Factory()
	if err != nil {
		return time.Time{}, "", false
	}
	defer a.Close()
	if w, isWaiter := a.(provider.Waiter); isWaiter {
		return w.Waiting()
	}
	return time.Time{}, "", false
}

// Waiting says whether any request of the process waits for a provider's rate limit: what
// benchy run, which runs one benchmark at a time, shows on its progress line.
func Waiting() (since time.Time, why string, ok bool) { return provider.Waiting() }
