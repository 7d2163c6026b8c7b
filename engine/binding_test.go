package engine

import (
	"errors"
	"fmt"
	"testing"
)

// TestMissingBinding: a binder's missing binding is ErrMissingBinding to errors.Is, and its
// reason is there to take without the sentinel's words, also when wrapped.
func TestMissingBinding(t *testing.T) {
	err := fmt.Errorf("binding: %w", NoBinding("binding %q runs %s", "x", "./a"))
	var mb *MissingBinding
	if !errors.Is(err, ErrMissingBinding) || !errors.As(err, &mb) || mb.Reason != `binding "x" runs ./a` {
		t.Errorf("errors.Is %v, As %v %+v", errors.Is(err, ErrMissingBinding), errors.As(err, &mb), mb)
	}
	if got := mb.Error(); got != `no adapter binding for this AI-system: binding "x" runs ./a` {
		t.Errorf("Error() = %q", got)
	}
}
