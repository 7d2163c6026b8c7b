package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/internal/yamlnode"
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
	b, ds := compiler.Compile(src)
	if len(ds) == 0 && pos[0] != "-" {
		// A model's prompt template is checked too, as a run would before its first request.
		dir := filepath.Dir(pos[0])
		ws, _ := workspace.Find(dir)
		ds = adapter.CheckPrompt(b, dir, runPaths(dir, ws, false))
		for i := range ds {
			if ds[i].File == "" { // the benchmark's own: at its ai-system.prompt
				ds[i].Line, ds[i].Column = promptPos(src)
			}
		}
	}
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

// writeAtomic replaces name with data through a temporary file in the same directory,
// synced before the rename and the directory after it, so a crash leaves either the old
// benchmark or the new one, never half of one. The rename only needs the directory's
// permission, so the file's own is checked first: a file the user may not write (0444, or
// another user's in a shared folder) is refused, not replaced. The new file keeps the old
// one's permissions, and its owner and group where the user may give them (root).
func writeAtomic(name string, data []byte) error {
	name, err := filepath.EvalSymlinks(name) // rewrite the file a link points to, not the link
	if err != nil {
		return err
	}
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", name)
	}
	f, err := os.OpenFile(name, os.O_WRONLY, 0) // not O_TRUNC: only asks whether we may write
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s: you may not write this file (mode %v), so fmt -w leaves it as it is", name, info.Mode().Perm())
		}
		return err
	}
	f.Close()
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing there
	_, err = tmp.Write(data)
	if err == nil {
		keepOwner(tmp, info) // best effort: only root may give a file away
		err = tmp.Chmod(info.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(name))
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

// promptPos is where a valid benchmark's ai-system.prompt value starts, 1:1 if not found.
func promptPos(src []byte) (line, col int) {
	root, _, _ := yamlnode.Parse(src, yamlnode.Options{})
	sys, _ := root.Get("ai-system")
	if v, _ := sys.Get("prompt"); v != nil {
		return v.Pos().Line, v.Pos().Col
	}
	return 1, 1
}
