package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/diag"
)

// suiteDir is the official YAML test suite, beside the repository (../shared/corpus).
const suiteDir = "../../shared/corpus/yaml-test-suite"

// TestYAMLTestSuite feeds every in.yaml of the YAML test suite to the compiler: no panic, no
// hang, diagnostics inside the input, and every text that uses an anchor, alias or tag is
// rejected as invalid_yaml. None of these texts is a benchmark, so all must fail.
func TestYAMLTestSuite(t *testing.T) {
	files := suiteFiles()
	if len(files) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("YAML test suite not found at %s", suiteDir)
		}
		t.Skipf("YAML test suite not found at %s", suiteDir)
	}
	var anchored, invalidYAML, errorCases, errorCasesRejectedAsYAML int
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(filepath.Dir(f), suiteDir+"/")
		var ds diag.List
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			_, ds = Compile(src)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: compile did not finish in 10s", name)
		}
		if len(ds) == 0 {
			t.Errorf("%s: compiled, but no suite text is a benchmark", name)
			continue
		}
		checkDiagnostics(t, src, ds)
		if ds.Has(diag.InvalidYAML) {
			invalidYAML++
		}
		if usesAnchorsOrTags(string(src)) {
			anchored++
			if !ds.Has(diag.InvalidYAML) {
				t.Errorf("%s uses anchors, aliases or tags but is not rejected as invalid_yaml: %v", name, ds)
			}
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(f), "error")); err == nil {
			errorCases++
			if ds.Has(diag.InvalidYAML) {
				errorCasesRejectedAsYAML++
			}
		}
	}
	t.Logf("%d texts: %d rejected as invalid_yaml; %d use anchors, aliases or tags (all rejected); "+
		"%d are invalid YAML per the suite, %d of them reported as invalid_yaml (goccy accepts the rest)",
		len(files), invalidYAML, anchored, errorCases, errorCasesRejectedAsYAML)
	if anchored < 50 {
		t.Errorf("only %d texts with anchors, aliases or tags found; the detector is broken", anchored)
	}
}

// usesAnchorsOrTags asks the YAML lexer, not the parser the compiler walks, whether a text
// has an anchor, alias or tag token.
func usesAnchorsOrTags(src string) bool {
	for _, tk := range lexer.Tokenize(src) {
		switch tk.Type {
		case token.AnchorType, token.AliasType, token.TagType:
			return true
		}
	}
	return false
}
