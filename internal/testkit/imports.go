package testkit

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// GoFile is a Go file and the packages it imports.
type GoFile struct {
	Name    string
	Imports []string
}

// Imports is each non-test Go file of folder dir, in name order, with the packages it
// imports: the tests that keep a package linkable by the WebAssembly app check them.
func Imports(t testing.TB, dir string) []GoFile {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []GoFile
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		paths := []string{}
		for _, imp := range parsed.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			paths = append(paths, p)
		}
		out = append(out, GoFile{f, paths})
	}
	return out
}
