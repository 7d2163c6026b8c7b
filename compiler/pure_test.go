package compiler

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPurePackages keeps the packages the browser runs free of the operating system: they
// take bytes and return values, so they behave the same natively and in WebAssembly.
func TestPurePackages(t *testing.T) {
	forbidden := []string{"os", "os/exec", "os/signal", "net", "net/http", "path/filepath", "syscall", "time", "math/rand", "math/rand/v2", "unsafe",
		"github.com/maxence-charriere/go-app/v10/pkg/app"}
	for _, dir := range []string{".", "../ontology", "../ir", "../diag", "../internal/suggest", "../internal/yamlnode", "../web/form"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		checked := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if path == bad || strings.HasPrefix(path, bad+"/") {
						t.Errorf("%s imports %s; the pure packages must not", f, path)
					}
				}
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("no Go files in %s", dir)
		}
	}
}
