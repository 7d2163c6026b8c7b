package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"version", "ontology_version", "benchmark", "program", "scoring", "data", "ai-system"}
	tests := []struct {
		word, want string
	}{
		{"ai_system", "ai-system"},
		{"ontology-version", "ontology_version"},
		{"progarm", "program"}, // transposition
		{"Version", "version"}, // case only
		{"scorng", "scoring"},  // deletion
		{"dataset", "data"},    // a shared prefix
		{"x", ""},              // nothing near
		{"", ""},               // nothing to match
		{"benchmarks", "benchmark"},
	}
	for _, tt := range tests {
		if got := Closest(tt.word, keys); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestClosestByPrefixOrPart(t *testing.T) {
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"classification", []string{"extract", "classify", "transcribe", "translate"}, "classify"},
		{"trans", []string{"extract", "classify", "transcribe", "translate"}, ""}, // two fit: no guess
		{"params", []string{"type", "provider", "model", "prompt", "parameters"}, "parameters"},
		{"ext", []string{"model", "external"}, "external"},
		{"support", []string{"retail", "customer_support", "news"}, "customer_support"},
		{"care", []string{"health_care", "child_care"}, ""},
		{"ex", []string{"model", "external"}, ""}, // too short to be a prefix
		// A prefix of one and a part of another: no guess (it was both, glued: medicalsocial_media).
		{"media", []string{"medical", "news", "social_media"}, ""},
		{"media", []string{"news", "social_media"}, "social_media"},
	}
	for _, tt := range tests {
		if got := Closest(tt.word, tt.candidates); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "ab", 2},
		{"kitten", "sitting", 3},
		{"ab", "ba", 1},
		{"日本", "日本語", 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
