package ontology

import (
	"testing"

	"github.com/benchy-eval/benchy/web/ui/uitest"
)

func TestSearch(t *testing.T) {
	if !ontoMatches("", "x") || !ontoMatches("ENUM", "that field is an enum") || !ontoMatches("single code", "language is a single code") ||
		ontoMatches("enum audio", "that field is an enum") || !ontoMatches("esp", "es", "Spanish", "español") {
		t.Error("ontoMatches")
	}
}

// TestRenderWithoutData: the page renders from the built-in registry, and when nothing
// matches the search.
func TestRenderWithoutData(t *testing.T) {
	uitest.Renders(t, &Page{}, &Page{query: "nothing matches this"})
}
