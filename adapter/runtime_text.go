package adapter

import (
	"bytes"
	"slices"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// A runtime file is known by its text as well as by its name: `benchy run --runtime FILE`
// reads one of any name and runs its commands, and its URLs and command lines may hold
// tokens. So what Benchy writes through its API or reads as a prompt is never one.

// RuntimeText reports whether src is a runtime file by its text: compiled as a benchmark,
// it has bindings, providers or executors at its top (RuntimeKey), the keys a runtime file has and a
// benchmark does not. A text longer than yamlnode.MaxSize, the most a runtime file has, is
// judged by its start, cut at the last line end before that size: a runtime file with a
// long tail still holds its commands and tokens.
func RuntimeText(src []byte) bool {
	if len(src) > yamlnode.MaxSize {
		src = src[:bytes.LastIndexByte(src[:yamlnode.MaxSize], '\n')+1]
	}
	_, ds := compiler.Compile(src)
	return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return RuntimeKey(string(d.Code), d.Path) })
}

// RuntimeKey reports whether a diagnostic of a benchmark's compile, by its code and path,
// is a runtime file's key at the top of the text: bindings, providers or executors, unknown
// to a benchmark (a runtime file of executors alone names the clusters a run goes to). The server reads it from the compile a save makes anyway.
func RuntimeKey(code string, path []string) bool {
	return code == string(diag.UnknownKey) && len(path) == 1 && (path[0] == "bindings" || path[0] == "providers" || path[0] == "executors")
}
