package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/adapter/runtimefile"
)

// What a runtime file's commands run or read is never written by benchy: the server's
// uploads (PUT /api/files) and the result files of `benchy run` (-o) both ask CommandWords
// which words of the file could be such paths, so that one rule says what a binding runs.

// CommandWords are the words of a runtime file that could be paths its commands run or
// read. Of a file that parses, only the bindings' commands and the programs they require
// count, not its comments, names or URLs: a comment naming invoices/ must not keep a
// benchmark from being saved there. Each argv word is split further at spaces, quotes,
// brackets, commas, = and : (commandSeparator), which finds a script given as an argument
// ([python3, extract.py, --rules=r.txt], [sh, -c, "… words.txt"]): it can name more than
// the command does, never less.
//
// A file that does not parse binds nothing today, but may be fixed tomorrow into one that
// runs what was written meanwhile; its whole text is split into words, as if every word
// were a command's, which is conservative.
func CommandWords(src []byte) []string {
	f, problems := runtimefile.Parse(src)
	if len(problems) > 0 || f == nil {
		return strings.FieldsFunc(string(src), commandSeparator)
	}
	var words []string
	for _, b := range f.Bindings {
		args := slices.Clone(b.Command)
		for _, r := range b.Requires {
			args = append(args, r.Program)
		}
		for _, arg := range args {
			words = append(words, strings.FieldsFunc(arg, commandSeparator)...)
		}
	}
	return words
}

func commandSeparator(r rune) bool {
	return strings.ContainsRune(" \t\r\n\"'`[]{}(),;=:&|<>$", r)
}

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
