package ontology

import "testing"

func TestSearch(t *testing.T) {
	if !ontoMatches("", "x") || !ontoMatches("ENUM", "that field is an enum") || !ontoMatches("single code", "language is a single code") ||
		ontoMatches("enum audio", "that field is an enum") || !ontoMatches("esp", "es", "Spanish", "español") {
		t.Error("ontoMatches")
	}
}

// TestRenderWithoutData: the page renders from the built-in registry, and when nothing
// matches the search.
func TestRenderWithoutData(t *testing.T) {
	for i, p := range []*Page{{}, {query: "nothing matches this"}} {
		if p.Render() == nil {
			t.Errorf("page %d rendered nothing", i)
		}
	}
}
