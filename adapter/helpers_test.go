package adapter

import (
	"io"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// bindFactory parses runtime file src, whose commands run in dir, and returns the factory
// of its binding for the external AI-system id; commands' stderr goes to log.
func bindFactory(t testing.TB, src, dir, id string, log io.Writer) engine.Factory {
	t.Helper()
	rt, err := ParseRuntime([]byte(src), dir)
	if err != nil {
		t.Fatal(err)
	}
	f, name, err := rt.Factory(&ir.Benchmark{AISystem: ir.AISystem{Type: ir.SystemExternal, ID: id}}, dir, log)
	if err != nil || name != id {
		t.Fatalf("Factory: %q, %v", name, err)
	}
	return f
}

// started is one adapter of f, closed when the test ends.
func started(t testing.TB, f engine.Factory) engine.Adapter {
	t.Helper()
	a, err := f()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
