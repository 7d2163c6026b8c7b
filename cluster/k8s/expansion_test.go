package k8s_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/benchy-eval/benchy/cluster/k8s"
)

// TestManifestsEscapeExpansion: Kubernetes expands $(VAR) in a container's command, args
// and env values from the pod's environment (the Secret's keys among them), so every $ of
// a path is written $$, which it turns back into one $: a benchmark, runtime file or DIR
// named with $(HOME) or $(OPENAI_API_KEY) reaches benchy as named, and never a secret.
func TestManifestsEscapeExpansion(t *testing.T) {
	jobs := manifests(t, k8s.Options{
		Benchmark: "bench/$(HOME).yaml", Shards: 2, Image: "registry.example/benchy:1", VolumeClaim: "w",
		OutDir: "shards/$(OPENAI_API_KEY)", Runtime: "bench/$$x.runtime.yaml", Secret: "provider-keys",
	})
	var all []corev1.Container
	for _, j := range jobs {
		all = append(all, j.Spec.Template.Spec.InitContainers...)
		all = append(all, j.Spec.Template.Spec.Containers...)
	}
	seen := 0
	for _, c := range all {
		var words []string
		words = append(words, c.Command...)
		words = append(words, c.Args...)
		for _, e := range c.Env {
			words = append(words, e.Value)
		}
		for _, w := range words {
			if unescaped(w) {
				t.Errorf("container %s: %q has a $ Kubernetes would expand", c.Name, w)
			}
			if strings.Contains(w, "$$(HOME)") || strings.Contains(w, "$$(OPENAI_API_KEY)") || strings.Contains(w, "$$$$x") {
				seen++
			}
		}
	}
	// The shard's benchmark, DIR and runtime file, the wait's DIR, the merge's DIR and -o
	// (and, where it names them, its benchmark and runtime file).
	if seen < 6 {
		t.Errorf("%d words hold the escaped paths, want 6 or more: %+v", seen, all)
	}
}

// unescaped reports whether s has a $ that is not one of a $$ pair, read left to right as
// Kubernetes reads it.
func unescaped(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '$' {
			i++
			continue
		}
		return true
	}
	return false
}
