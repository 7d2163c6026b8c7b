package compiler

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestPurePackages keeps the packages the browser runs free of the operating system: they
// take bytes and return values, so they behave the same natively and in WebAssembly.
func TestPurePackages(t *testing.T) {
	forbidden := []string{"os", "os/exec", "os/signal", "net", "net/http", "path/filepath", "syscall", "time", "math/rand", "math/rand/v2", "unsafe",
		"github.com/maxence-charriere/go-app/v10/pkg/app"}
	for _, dir := range []string{".", "../ontology", "../ir", "../diag", "../internal/suggest", "../internal/yamlnode", "../web/form"} {
		files := testkit.Imports(t, dir)
		for _, f := range files {
			for _, path := range f.Imports {
				for _, bad := range forbidden {
					if path == bad || strings.HasPrefix(path, bad+"/") {
						t.Errorf("%s imports %s; the pure packages must not", f.Name, path)
					}
				}
			}
		}
		if len(files) == 0 {
			t.Errorf("no Go files in %s", dir)
		}
	}
}
