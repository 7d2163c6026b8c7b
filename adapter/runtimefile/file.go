package runtimefile

import (
	"fmt"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// DefaultTimeout bounds one example when a binding names no timeout: long enough for a slow
// model behind a command, short enough that a hung system does not stall a run for good.
const DefaultTimeout = 60 * time.Second

// File is a parsed runtime file, in the file's order. It is plain data: nothing in it is
// checked against the machine, and nothing is resolved against a folder.
type File struct {
	Bindings  []Binding
	Providers []provider.Config // every default written out (Parse)
	Executors []Executor        // where else the server may run a benchmark (executors.go)
}

// Binding is one AI-system's adapter as the file gives it: exactly one of Command and URL
// is set.
type Binding struct {
	Name     string        // the AI-system's id
	Command  []string      // as written: a program given as a relative path is relative to the file's folder
	URL      string        // an http binding's endpoint
	Timeout  time.Duration // per example; DefaultTimeout when the file gives none
	Requires []Requirement // programs the command needs
	Env      []string      // names of the variables passed to the command, besides the base environment
}

// Requirement is a program a command binding needs (a name looked up in PATH, or an
// absolute path), and the package that installs it.
type Requirement struct {
	Program, Package string
}

// String shows the names of the bindings and providers, never their commands or URLs, which
// may hold secrets.
func (f File) String() string {
	names := func(n int, name func(int) string) string {
		out := make([]string, n)
		for i := range out {
			out[i] = name(i)
		}
		return strings.Join(out, ", ")
	}
	return fmt.Sprintf("runtime file {bindings: [%s], providers: [%s]}",
		names(len(f.Bindings), func(i int) string { return f.Bindings[i].Name }),
		names(len(f.Providers), func(i int) string { return f.Providers[i].Name }))
}

// GoString is String, so that %#v shows no secret either.
func (f File) GoString() string { return f.String() }

// String shows the binding's name and kind, never its command or URL.
func (b Binding) String() string {
	kind := "command"
	if b.URL != "" {
		kind = "http"
	}
	return fmt.Sprintf("binding %q (%s)", b.Name, kind)
}

// GoString is String, so that %#v shows no secret either.
func (b Binding) GoString() string { return b.String() }

// Parse reads a runtime file's text. It returns the file, or nil and every problem found
// (at most yamlnode.MaxDiagnostics, the last saying how many more there were), sorted by
// position, each with code invalid_runtime. An empty file binds nothing.
func Parse(src []byte) (*File, diag.List) {
	opt := yamlnode.Options{Doc: "runtime file"}
	root, ds, dropped := yamlnode.Parse(src, opt)
	p := &parser{f: &File{}, diags: ds, dropped: dropped}
	if root != nil {
		p.top(root)
	}
	if len(p.diags) == 0 && p.dropped == 0 {
		return p.f, nil
	}
	out := yamlnode.Limit(p.diags.Sort(), p.dropped, opt.Doc)
	for i := range out {
		out[i].Code = diag.InvalidRuntime
	}
	return nil, out
}
