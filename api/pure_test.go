package api

import (
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestImports keeps the package what the web app can link: encoding and the types it
// encodes (time.Time for timestamps, net/url for escaping, strconv for indexes in paths, slices for sorting keys), never the operating system,
// the network or the server's packages.
func TestImports(t *testing.T) {
	allowed := map[string]bool{"encoding/json": true, "net/url": true, "slices": true, "strconv": true, "strings": true, "time": true}
	for _, f := range testkit.Imports(t, ".") {
		for _, p := range f.Imports {
			if !allowed[p] {
				t.Errorf("%s imports %s", f.Name, p)
			}
		}
	}
}
