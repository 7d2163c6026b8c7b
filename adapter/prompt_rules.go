package adapter

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// A model's prompt file is sent to the provider and recorded with the run's requests, which
// the API serves: it is read by the artifacts' rules, beyond the confinement every data
// file has (engine.Paths). It is prompt text by its name and by the name it resolves to
// (promptExtensions), never a file a binding's command names (CommandWords, as uploads are
// refused), and never a runtime file by its text (RuntimeText). A refusal names the rule,
// never a byte of the file.

// promptExtensions are the names a prompt file may have: text, not a script, a data file
// or a configuration file that a binding reads.
var promptExtensions = []string{".md", ".txt"}

// promptKind refuses a prompt file written as name whose file, opened, has the path real
// (links resolved), when either name is not prompt text.
func promptKind(name, real string) error {
	for _, n := range []string{name, real} {
		ext := strings.ToLower(filepath.Ext(filepath.FromSlash(n)))
		if slices.Contains(promptExtensions, ext) {
			continue
		}
		what := "has no extension"
		if ext != "" {
			what = "is a " + clip([]byte(ext), 40) + " file"
		}
		if n == real && real != name {
			what = "leads to a file that " + what
		}
		return fmt.Errorf("ai-system.prompt: the prompt file %q %s: a prompt is text, %s", name, what, strings.Join(promptExtensions, " or "))
	}
	return nil
}

// promptCommands refuses a prompt file, info its opened file's and real its path (links
// resolved), that a binding's command names, or that lies in a folder one names: the
// commands of rt (the runtime the run binds through; nil for benchy validate), of the
// runtime files of paths.Private (the one a run binds through, whatever its name; the
// server's: every runtime file of its workspace), and of each benchy.runtime.yaml at or
// above benchDir within the workspace (those a benchmark there binds through).
func promptCommands(name, real string, info os.FileInfo, benchDir string, paths engine.Paths, rt *Runtime) error {
	top := confinement(benchDir, paths)
	named := func(word, dir string) bool {
		p := filepath.FromSlash(word)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p, err := filepath.Abs(p) // a runtime file named relative to the working directory
		if err != nil {
			return false
		}
		if strings.ContainsAny(word, "*?[") { // a glob the command's shell expands (cat conf/k*.txt)
			return globNames(p, real)
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return false
		}
		ti, err := os.Stat(target)
		if err != nil {
			return false
		}
		if ti.IsDir() && !strictlyInside(target, top) {
			// The workspace's root, or a folder above it (".", "/", "cd .. &&"): a command
			// naming it would claim every file, as the uploads' rule says (workspacePath).
			return false
		}
		if rel, err := filepath.Rel(target, real); err == nil && filepath.IsLocal(rel) {
			return true // the file, or a folder above it
		}
		return os.SameFile(ti, info) // a hard link of it
	}
	refusal := func(file, binding, word string) error {
		detail := fmt.Sprintf("the word %q", word)
		if binding != "" {
			detail = fmt.Sprintf("binding %s, the word %q", binding, word)
		}
		return fmt.Errorf("ai-system.prompt: the prompt file %q is named by a binding's command in %s (%s): what a binding runs or reads is never sent as a prompt; keep the prompt in a file no command names", name, file, detail)
	}
	if rt != nil {
		for _, id := range slices.Sorted(maps.Keys(rt.bindings)) {
			b := rt.bindings[id]
			words := slices.Clone(b.written)
			for _, r := range b.requires {
				words = append(words, r.Program)
			}
			for _, w := range words {
				for _, word := range ArgWords(w) {
					if named(word, b.dir) {
						return refusal(runtimeName(rt.file), id, word)
					}
				}
			}
		}
	}
	for _, file := range runtimeFilesOf(benchDir, paths) {
		src, ok := readRuntimeText(file)
		if !ok {
			continue
		}
		for _, word := range CommandWords(src) {
			if named(word, filepath.Dir(file)) {
				return refusal(filepath.Base(file), "", word)
			}
		}
	}
	return nil
}

// globNames reports whether pattern, an absolute path with glob characters, matches file
// real (links resolved) or a folder above it: what a shell expands the word to.
func globNames(pattern, real string) bool {
	for p := real; ; p = filepath.Dir(p) {
		if ok, _ := filepath.Match(pattern, p); ok {
			return true
		}
		if filepath.Dir(p) == p {
			return false
		}
	}
}

// confinement is the folder a prompt of a benchmark in benchDir is confined to (the
// workspace, else benchDir), links resolved; "" when it cannot be told.
func confinement(benchDir string, paths engine.Paths) string {
	top := benchDir
	if paths.Workspace != "" {
		top = paths.Workspace
	}
	top, err := filepath.Abs(top)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return top
}

// strictlyInside reports whether folder dir lies below top, not top itself nor above it.
func strictlyInside(dir, top string) bool {
	if top == "" {
		return false
	}
	rel, err := filepath.Rel(top, dir)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// runtimeName is how a refusal names the runtime file path (as given), by its base name:
// the message is stored with the run and the server shows it.
func runtimeName(path string) string {
	if path == "" {
		return "the runtime file"
	}
	return filepath.Base(path)
}

// runtimeFilesOf are the runtime files whose commands a prompt file of a benchmark in
// benchDir is checked against (promptCommands): paths.Private's, then each RuntimeFile at
// or above benchDir up to the workspace (benchDir alone when there is none).
func runtimeFilesOf(benchDir string, paths engine.Paths) []string {
	files := slices.Clone(paths.Private)
	dir, err := filepath.Abs(benchDir)
	if err != nil {
		return files
	}
	top := dir
	if paths.Workspace != "" {
		if top, err = filepath.Abs(paths.Workspace); err != nil {
			return files
		}
	}
	for {
		files = append(files, filepath.Join(dir, RuntimeFile))
		rel, err := filepath.Rel(top, dir)
		parent := filepath.Dir(dir)
		if err != nil || rel == "." || !filepath.IsLocal(rel) || parent == dir {
			return files
		}
		dir = parent
	}
}

// readRuntimeText reads file as a runtime file: a regular file of at most yamlnode.MaxSize
// bytes, named RuntimeFile or with a runtime file's text (paths.Private also lists hidden
// files, .env, which are no runtime files). ok is false for anything else.
func readRuntimeText(file string) ([]byte, bool) {
	f, err := engine.OpenRegular(file)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, yamlnode.MaxSize+1))
	if err != nil || len(src) > yamlnode.MaxSize {
		return nil, false
	}
	if !strings.EqualFold(filepath.Base(file), RuntimeFile) && !RuntimeText(src) {
		return nil, false
	}
	return src, true
}
