package api

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports keeps the package what the web app can link: encoding and the types it
// encodes (time.Time for timestamps, net/url for escaping), never the operating system,
// the network or the server's packages.
func TestImports(t *testing.T) {
	allowed := map[string]bool{"encoding/json": true, "net/url": true, "strings": true, "time": true}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); !allowed[p] {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
