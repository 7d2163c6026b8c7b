package ontology

import (
	"slices"
	"testing"
)

// TestSuggestWithdrawnLanguageCodes: a withdrawn ISO 639-1 code should point at its
// replacement. Today any two-letter input goes to suggest.Closest, whose first
// (alphabetical) candidate at distance 1 wins, so the hint names an unrelated language.
func TestSuggestWithdrawnLanguageCodes(t *testing.T) {
	r := mustV1(t)
	for in, want := range map[string]string{"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"} {
		if got := r.SuggestLanguage(in); got != want {
			t.Errorf("SuggestLanguage(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSuggestAmbiguousLanguageName: North (nd) and South (nr) Ndebele share the native name
// isiNdebele; load keeps whichever comes last, so the suggestion is a silent guess.
func TestSuggestAmbiguousLanguageName(t *testing.T) {
	r := mustV1(t)
	if got := r.SuggestLanguage("isiNdebele"); got != "" {
		t.Errorf("SuggestLanguage(isiNdebele) = %q, want \"\" (ambiguous: nd, nr)", got)
	}
}

// TestIDListsAreCopies: the registry is documented read-only and v1 is a shared global, yet
// TaskIDs/DomainIDs/LanguageCodes return the internal slices that HasX reads.
func TestIDListsAreCopies(t *testing.T) {
	r, _ := load(registryJSON, v1Rules) // a private copy, so the shared registry is untouched
	for name, list := range map[string]func() []string{"TaskIDs": r.TaskIDs, "DomainIDs": r.DomainIDs, "LanguageCodes": r.LanguageCodes} {
		before := slices.Clone(list())
		list()[0] = "mutated"
		if got := list(); !slices.Equal(got, before) {
			t.Errorf("writing to %s() changed the registry: %v", name, got[:1])
		}
	}
}
