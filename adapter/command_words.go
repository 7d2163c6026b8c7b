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
			words = append(words, ArgWords(arg)...)
		}
	}
	return words
}

// ArgWords are the words of one argv element of a command that could be paths it runs or
// reads: the element split at spaces, quotes, brackets, commas, = and : (commandSeparator);
// the element whole (a path with a space, given as one argument); and the element as a
// shell reads a command line, roughly: quotes and backslashes removed (c"o"nf/k.txt,
// cre\ds.txt), split at blanks and operators only, so that a glob keeps its brackets
// ([k]eys/k.txt, for the caller to match), and each such word with a leading variable
// ($PWD/cfg/v.md, ${HOME}/x) also without it. A shell can compute a path in ways no list
// of words sees (a variable set in the script, a command substitution): the README says
// to keep secrets in hidden files, which are never read as data or prompts.
func ArgWords(arg string) []string {
	words := strings.FieldsFunc(arg, commandSeparator)
	if strings.TrimSpace(arg) != "" {
		words = append(words, arg)
	}
	plain := strings.NewReplacer("'", "", "\"", "", "\\", "", "`", "").Replace(arg)
	for _, w := range strings.FieldsFunc(plain, shellBreak) {
		words = append(words, w)
		for strings.HasPrefix(w, "$") || strings.HasPrefix(w, "~") {
			_, rest, ok := strings.Cut(w, "/")
			if !ok {
				break
			}
			words = append(words, rest)
			w = rest
		}
		if i := strings.Index(w, "$"); i > 0 { // --file=$DIR/x: the part before, split at = already
			if _, rest, ok := strings.Cut(w[i:], "/"); ok {
				words = append(words, rest)
			}
		}
	}
	return words
}

// shellBreak is what ends a word of a shell command line: blanks and operators (not the
// brackets, stars and question marks of a glob).
func shellBreak(r rune) bool {
	return strings.ContainsRune(" \t\r\n;&|<>()=,:", r)
}

func commandSeparator(r rune) bool {
	return strings.ContainsRune(" \t\r\n\"'`[]{}(),;=:&|<>$", r)
}
