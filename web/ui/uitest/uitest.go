package uitest

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/ui"
)

// Loaded is a Load of key that has answered v.
func Loaded[T any](key string, v T) ui.Load[T] {
	var l ui.Load[T]
	l.Settle(l.Start(key), v, nil)
	return l
}

// Failed is a Load of key whose answer was err.
func Failed[T any](key string, err error) ui.Load[T] {
	var l ui.Load[T]
	var zero T
	l.Settle(l.Start(key), zero, err)
	return l
}

// Renders renders each page, a state a page passes through (before, while and after the
// server answers, with fields missing): none may panic or render nothing.
func Renders[P interface{ Render() app.UI }](t *testing.T, pages ...P) {
	t.Helper()
	for i, p := range pages {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("page %d panicked: %v", i, r)
				}
			}()
			if p.Render() == nil {
				t.Errorf("page %d rendered nothing", i)
			}
		}()
	}
}
