package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/runtimefile"
)

// CommandWords are the words of a runtime file that could be paths its commands run or
// read: adapter.CommandWords, the one rule of what a binding runs.
func CommandWords(src []byte) []string { return adapter.CommandWords(src) }

// CommandFiles are the existing files the commands of runtime file src, in folder dir,
// name (CommandWords): each word as a path, relative to dir (the commands' working
// directory); and each program named bare (python3) as the adapter finds it, in PATH.
// Only files count, through their links (a word naming a folder does not), so that
// comparing them by os.SameFile with a file about to be written tells whether a binding
// runs or reads it.
func CommandFiles(src []byte, dir string) []string {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			files = append(files, p)
		}
	}
	for _, word := range CommandWords(src) {
		p := filepath.FromSlash(word)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		add(p)
	}
	if f, problems := runtimefile.Parse(src); len(problems) == 0 && f != nil {
		for _, b := range f.Bindings {
			programs := b.Command[:min(len(b.Command), 1)]
			for _, r := range b.Requires {
				programs = append(programs[:len(programs):len(programs)], r.Program)
			}
			for _, prog := range programs {
				if strings.ContainsAny(prog, "/"+string(filepath.Separator)) {
					continue
				}
				if found, err := exec.LookPath(prog); err == nil {
					add(found)
				}
			}
		}
	}
	return files
}
