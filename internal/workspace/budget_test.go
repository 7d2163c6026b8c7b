package workspace

import (
	"context"
	"fmt"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// TestEndingBudget: a run its budget stopped ends cancelled with reason budget and keeps
// the report of the examples done; one whose results could not all be stored is
// interrupted still (a resume evaluates what is missing); a user's cancel has no reason.
func TestEndingBudget(t *testing.T) {
	budget := fmt.Errorf("run: %w", &engine.BudgetError{Index: 3, Total: 10})
	rep := &engine.Report{Stopped: &engine.Stopped{Reason: engine.ReasonBudget}}
	cancelled, cancel := context.WithCancelCause(context.Background())
	cancel(ErrCancelled)
	for _, tt := range []struct {
		name       string
		ctx        context.Context
		runErr     error
		storeErr   error
		want       store.Status
		wantReason string
	}{
		{"the budget stopped it", context.Background(), budget, nil, store.Cancelled, engine.ReasonBudget},
		{"the budget stopped it, a result not stored", context.Background(), budget, fmt.Errorf("disk full"), store.Interrupted, ""},
		{"a user cancelled it", cancelled, context.Canceled, nil, store.Cancelled, ""},
	} {
		got := Ending(tt.ctx, rep, tt.runErr, tt.storeErr)
		if got.Status != tt.want || got.Reason != tt.wantReason {
			t.Errorf("%s: %s (reason %q), want %s (reason %q)", tt.name, got.Status, got.Reason, tt.want, tt.wantReason)
		}
	}
}
