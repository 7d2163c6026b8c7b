package adapter

import (
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/adapter/runtimefile"
)

// What a runtime file's commands run or read is never written by benchy nor read by it as
// data: the server's uploads (PUT /api/files), the result files of `benchy run` (-o) and a
// model's prompt file (readPromptIn) all ask CommandWords which words of the file could be
// such paths, so that one rule says what a binding runs.

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
