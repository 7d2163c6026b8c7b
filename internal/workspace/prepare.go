package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ir/irschema"
	"github.com/benchy-eval/benchy/store"
)

// Source is the benchmark a run evaluates: its text as read, or the IR of a stored run.
type Source struct {
	// Name is the benchmark file as its caller names it: the File of its diagnostics.
	Name string
	// Text is the file's bytes: YAML, compiled, or the JSON of an IR, checked (IsIR).
	Text []byte
	// YAML says Text is YAML whatever it looks like (the server's files all end in .yaml).
	YAML bool
	// IR, with Canonical and IRHash, is a benchmark checked and hashed before (a resumed
	// run's stored IR): taken as it is, and Text is not read.
	IR        *ir.Benchmark
	Canonical []byte
	IRHash    string
}

// Setup is where a benchmark runs and what binds its AI-system.
type Setup struct {
	Dir   string       // the benchmark's folder: its data, artifacts and prompt file resolve against it
	Paths engine.Paths // where the run may read them
	// Runtime reads the runtime file the benchmark binds through and returns it with its
	// name: messages name it so, and a CLI keeps it private by it. A nil runtime without
	// error means none binds the benchmark. It is called once the benchmark is known to be
	// valid, so that a benchmark's own problems are reported first.
	Runtime func() (*adapter.Runtime, string, error)
	// NoRuntime ends the message of a benchmark no runtime file binds: how else to give
	// one (", or pass --runtime FILE").
	NoRuntime string
	Log       io.Writer // the adapters' own messages (a command's stderr)
	// CacheMode is benchy run's --cache: every provider's response cache mode; "" keeps
	// each provider's cache: (off unless it says).
	CacheMode string
	// Cache gives the response cache of the workspace's store, asked only when the run's
	// provider uses it; nil for a run in no workspace, which cannot.
	Cache func() (provider.Cache, error)
	// Offline says the plan sends no request (benchy run --estimate renders them only): a
	// provider's key need not be set.
	Offline bool
}

// Plan is a benchmark ready to run: checked, hashed and bound. Execute runs it; a store
// records it under Spec.
type Plan struct {
	IR            *ir.Benchmark
	Canonical     []byte // the IR's canonical JSON, stored with the run
	IRHash        string
	BenchmarkHash string        // ir.BenchmarkHash: the same for every AI-system
	System        engine.System // the AI-system as bound
	Factory       engine.Factory
	Binding       string       // the name it binds through, recorded in the report
	RuntimeFile   string       // the runtime file's name, as Setup.Runtime gave it
	BenchmarkDir  string       // Setup.Dir
	Paths         engine.Paths // Setup.Paths
}

// Spec is what the store records of a run of the plan: benchmark is its workspace path.
func (p *Plan) Spec(benchmark string, opts store.Options) store.RunSpec {
	sys := p.System
	return store.RunSpec{Benchmark: benchmark, IR: p.Canonical, IRHash: p.IRHash, AISystem: p.IR.AISystem,
		Binding: p.Binding, Options: opts, BenchmarkHash: p.BenchmarkHash, System: &sys}
}

// NotIR is a benchmark given as IR JSON that is not a valid Benchy IR. Its text is one line
// per problem, each starting with the file's name.
type NotIR struct {
	File     string
	Reason   string    // why it is no IR at all (not strict JSON, not the schema's shape)
	Problems diag.List // what it fails of the compiler's rules, when it has the IR's shape
}

func (e *NotIR) Error() string {
	if len(e.Problems) == 0 {
		return e.File + ": " + e.Reason
	}
	var b strings.Builder
	for i, d := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: not a valid Benchy IR: %s: %s", e.File, d.Code, d.Message)
	}
	return b.String()
}

// Unusable is a binding the runtime file defines but that cannot be used here: a
// provider whose key's variable is unset, say. Its text is the adapter's.
type Unusable struct{ Err error }

func (e *Unusable) Error() string { return e.Err.Error() }
func (e *Unusable) Unwrap() error { return e.Err }

// Prepare checks and hashes the benchmark of src and binds its AI-system through the
// runtime file of setup. A benchmark that does not compile, and one no runtime file binds
// (diag.MissingBinding, in the runtime file), come back as a diag.List error whose
// diagnostics name their file; IR JSON that is not a valid IR as a *NotIR; a binding that
// cannot be used as an *Unusable; the runtime file's own errors as Setup.Runtime returned
// them.
func Prepare(src Source, setup Setup) (*Plan, error) {
	p := &Plan{IR: src.IR, Canonical: src.Canonical, IRHash: src.IRHash, BenchmarkDir: setup.Dir, Paths: setup.Paths}
	if p.IR == nil {
		b, err := load(src)
		if err != nil {
			return nil, err
		}
		canonical, err := ir.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name, err)
		}
		p.IR, p.Canonical, p.IRHash = b, canonical, ir.Hash(canonical)
	}
	bh, err := ir.BenchmarkHash(p.Canonical)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	p.BenchmarkHash = bh
	rt, name, err := setup.Runtime()
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = adapter.RuntimeFile
	}
	p.RuntimeFile = name
	if rt == nil {
		return nil, missing(name, NoRuntime(p.IR.AISystem)+setup.NoRuntime)
	}
	p.Paths.Private = append(p.Paths.Private[:len(p.Paths.Private):len(p.Paths.Private)], name) // the runtime file, whatever its name
	if rt, err = withCache(rt, p.IR, setup); err != nil {
		return nil, &Unusable{err}
	}
	if setup.Offline {
		rt = rt.Offline()
	}
	var mb *engine.MissingBinding
	bound, err := rt.Bind(p.IR, setup.Dir, p.Paths, setup.Log)
	switch {
	case errors.As(err, &mb):
		return nil, missing(name, mb.Reason)
	case err != nil:
		return nil, &Unusable{err}
	}
	p.Factory, p.Binding, p.System = bound.Factory, bound.Name, bound.System(p.IR)
	return p, nil
}

// missing is the diagnostic of a benchmark that runtime file does not bind.
func missing(file, msg string) error {
	return diag.List{{File: file, Phase: engine.PhaseSetup, Code: diag.MissingBinding, Path: []string{"ai-system"}, Message: msg, Line: 1, Column: 1}}.Err()
}

// IsIR reports whether a benchmark file holds IR JSON rather than YAML: its name ends in
// .json, or its text starts as a JSON object does.
func IsIR(name string, text []byte) bool {
	return strings.HasSuffix(name, ".json") || bytes.HasPrefix(bytes.TrimSpace(text), []byte(`{"`))
}

// load compiles YAML, or checks IR JSON as strictly as the compiler's own output: strict
// JSON, the IR's schema, and the rules the compiler enforces (compiler.VerifyIR).
func load(src Source) (*ir.Benchmark, error) {
	if src.YAML || !IsIR(src.Name, src.Text) {
		b, ds := compiler.Compile(src.Text)
		if len(ds) > 0 {
			return nil, ds.In(src.Name).Err()
		}
		return b, nil
	}
	var strict *engine.StrictError
	if _, err := engine.DecodeJSON(src.Text); errors.As(err, &strict) {
		return nil, &NotIR{File: src.Name, Reason: fmt.Sprintf("not a Benchy IR: not strict JSON (RFC 8259): %v", err)}
	}
	if err := irschema.Validate(src.Text); err != nil {
		return nil, &NotIR{File: src.Name, Reason: fmt.Sprintf("not a Benchy IR: %v", err)}
	}
	b, err := ir.Unmarshal(src.Text)
	if err != nil {
		return nil, &NotIR{File: src.Name, Reason: err.Error()}
	}
	if ds := compiler.VerifyIR(b); len(ds) > 0 {
		return nil, &NotIR{File: src.Name, Problems: ds}
	}
	return b, nil
}

// RuntimeFor is the runtime file `benchy run` binds a benchmark file through: the one
// named (--runtime, read from anywhere), or else the one of the rule, read as the server
// reads it (RuntimeOf, LoadRuntime: inside the workspace, a link leading out refused), or,
// for a benchmark in no workspace, the working directory's. A missing default is no
// error: it returns a nil runtime, named adapter.RuntimeFile, and Prepare says what is
// missing.
func RuntimeFor(named, benchmark string) (*adapter.Runtime, string, error) {
	if named != "" {
		rt, err := adapter.LoadRuntime(named)
		return rt, named, err
	}
	ws, p, name := RuntimeOf(filepath.Dir(benchmark))
	switch {
	case p != "":
		root, err := os.OpenRoot(ws)
		if err != nil {
			return nil, name, fmt.Errorf("cannot read the runtime file %s: %w", name, err)
		}
		defer root.Close()
		rt, err := LoadRuntime(root, p, name)
		return rt, name, err
	case ws != "":
		return nil, adapter.RuntimeFile, nil // the server would not bind it either
	}
	cwd, err := os.OpenRoot(".")
	if err != nil {
		return nil, adapter.RuntimeFile, nil
	}
	defer cwd.Close()
	if !exists(cwd.FS(), adapter.RuntimeFile) {
		return nil, adapter.RuntimeFile, nil
	}
	rt, err := LoadRuntime(cwd, adapter.RuntimeFile, adapter.RuntimeFile)
	return rt, adapter.RuntimeFile, err
}
