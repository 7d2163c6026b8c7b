package store

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoStoreInPurePackages keeps SQLite out of everything the WASM build reaches: the pure
// packages of the Makefile and any web or wasm package, listed as GOOS=js GOARCH=wasm sees
// them.
func TestNoStoreInPurePackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	goList := func(args ...string) []string {
		cmd := exec.Command(gobin, append([]string{"list", "-e"}, args...)...)
		cmd.Dir = ".."
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return strings.Fields(string(out))
	}
	pure := []string{"./compiler/...", "./ontology/...", "./ir/...", "./diag/...", "./internal/suggest/..."}
	for _, p := range goList("./...") {
		if strings.Contains(p, "/web") || strings.Contains(p, "wasm") {
			pure = append(pure, p)
		}
	}
	for _, dep := range goList(append([]string{"-deps", "-f", "{{.ImportPath}}"}, pure...)...) {
		if strings.HasPrefix(dep, "modernc.org/") || dep == "github.com/benchy-eval/benchy/store" {
			t.Errorf("%s is reachable from the WASM-side packages %v", dep, pure)
		}
	}
}
