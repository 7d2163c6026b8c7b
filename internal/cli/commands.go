package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/ir/irschema"
	"github.com/benchy-eval/benchy/ontology"
)

func runCompile(e *env, args []string) int {
	fs := flags(e, "compile")
	pretty := fs.Bool("pretty", false, "indent the IR for humans (the canonical bytes have no whitespace)")
	hash := fs.Bool("hash", false, "print only the IR hash (sha256 of the canonical bytes)")
	pos, code, ok := parse(e, fs, args, 1)
	if !ok {
		return code
	}
	src, err := readBenchmark(e, pos[0])
	if err != nil {
		return inputFailed(e, "compile", pos[0], err, false)
	}
	canonical, h, ds := compiler.CompileCanonical(src)
	if len(ds) > 0 {
		fmt.Fprint(e.stderr, ds.Format(displayName(pos[0])))
		return ExitFail
	}
	switch {
	case *hash:
		fmt.Fprintln(e.stdout, h)
	case *pretty:
		var buf bytes.Buffer
		json.Indent(&buf, canonical, "", "  ")
		buf.WriteByte('\n')
		e.stdout.Write(buf.Bytes())
	default:
		e.stdout.Write(canonical)
	}
	return ExitOK
}

func runValidate(e *env, args []string) int {
	fs := flags(e, "validate")
	asJSON := fs.Bool("json", false, "print the diagnostics as a JSON array on stdout ([] when valid)")
	pos, code, ok := parse(e, fs, args, 1)
	if !ok {
		return code
	}
	src, err := readBenchmark(e, pos[0])
	if err != nil {
		return inputFailed(e, "validate", pos[0], err, *asJSON)
	}
	_, ds := compiler.Compile(src)
	if *asJSON {
		e.stdout.Write(ds.JSON())
	} else {
		fmt.Fprint(e.stderr, ds.Format(displayName(pos[0])))
	}
	if len(ds) > 0 {
		return ExitFail
	}
	return ExitOK
}

func runFmt(e *env, args []string) int {
	fs := flags(e, "fmt")
	write := fs.Bool("w", false, "write the result back to FILE instead of stdout")
	pos, code, ok := parse(e, fs, args, 1)
	if !ok {
		return code
	}
	if *write && pos[0] == "-" {
		fmt.Fprintln(e.stderr, "benchy fmt: -w needs a file, not standard input")
		return ExitUsage
	}
	src, err := readBenchmark(e, pos[0])
	if err != nil {
		return inputFailed(e, "fmt", pos[0], err, false)
	}
	out, ds := compiler.Format(src)
	if len(ds) == 0 {
		// Only a valid benchmark is formatted: an invalid one exits 1 with validate's
		// diagnostics, and -w leaves it untouched, so a typo (weigths:) is never
		// rewritten into a file that looks settled.
		_, ds = compiler.Compile(src)
	}
	if len(ds) > 0 {
		fmt.Fprint(e.stderr, ds.Format(displayName(pos[0])))
		return ExitFail
	}
	if !*write {
		e.stdout.Write(out)
		return ExitOK
	}
	if bytes.Equal(out, src) {
		return ExitOK
	}
	if err := writeAtomic(pos[0], out); err != nil {
		fmt.Fprintf(e.stderr, "benchy fmt: %v\n", err)
		return ExitFail
	}
	return ExitOK
}

// writeAtomic replaces name with data through a temporary file in the same directory, so a
// crash never leaves a half-written benchmark. The file keeps its permissions.
func writeAtomic(name string, data []byte) error {
	name, err := filepath.EvalSymlinks(name) // rewrite the file a link points to, not the link
	if err != nil {
		return err
	}
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

func runOntology(e *env, args []string) int {
	fs := flags(e, "ontology")
	asJSON := fs.Bool("json", false, "print the registry as JSON")
	if _, code, ok := parse(e, fs, args, 0); !ok {
		return code
	}
	reg, _ := ontology.Lookup(ontology.Version)
	if *asJSON {
		out, _ := json.MarshalIndent(reg, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", out)
		return ExitOK
	}
	w := e.stdout
	fmt.Fprintf(w, "Ontology %s\n\nTasks:\n", reg.Version)
	for _, t := range reg.Tasks {
		fmt.Fprintf(w, "  %-12s %s\n", t.ID, t.Description)
		for _, r := range t.Rules {
			fmt.Fprintf(w, "  %-12s   - %s\n", "", r)
		}
	}
	fmt.Fprintf(w, "\nDomains:\n")
	for _, d := range reg.Domains {
		fmt.Fprintf(w, "  %-20s %s\n", d.ID, d.Description)
	}
	fmt.Fprintf(w, "\nLanguages (ISO 639-1):\n")
	for _, l := range reg.Languages {
		fmt.Fprintf(w, "  %s  %s (%s)\n", l.Code, l.Name, l.Native)
	}
	return ExitOK
}

func runSchema(e *env, args []string) int {
	fs := flags(e, "schema")
	irSchema := fs.Bool("ir", false, "print the JSON Schema of the compiled IR instead")
	if _, code, ok := parse(e, fs, args, 0); !ok {
		return code
	}
	if *irSchema {
		e.stdout.Write(irschema.JSON)
		return ExitOK
	}
	reg, _ := ontology.Lookup(ontology.Version)
	e.stdout.Write(compiler.YAMLSchema(reg))
	return ExitOK
}
