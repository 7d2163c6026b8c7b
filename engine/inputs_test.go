package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestInputs: the inputs a run would evaluate, in index order, artifacts resolved, after
// the whole dataset is checked: a bad row past the limit still refuses them all.
func TestInputs(t *testing.T) {
	good := `{"input":{"text":"x%d","doc":"files/a.txt"},"expected":{"label":"yes","n":1}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/good.jsonl":  jsonl(fmt.Sprintf(good, 0), "", fmt.Sprintf(good, 1), fmt.Sprintf(good, 2)),
		"data/exam.jsonl":  jsonl(fmt.Sprintf(good, 0), `{"input":{}}`),
		"data/files/a.txt": "a",
	})
	b := compileYAML(t, datasetBench)
	b.Data.Path = "data/good.jsonl"
	for _, tt := range []struct{ limit, want int }{{0, 3}, {2, 2}, {9, 3}} {
		var texts []string
		v, err := Inputs(context.Background(), b, root, Paths{}, tt.limit, func(i int, in map[string]any) error {
			if i != len(texts) {
				t.Errorf("index %d after %d inputs", i, len(texts))
			}
			if doc, _ := in["doc"].(string); !filepath.IsAbs(doc) {
				t.Errorf("doc %q is not resolved", in["doc"])
			}
			texts = append(texts, in["text"].(string))
			return nil
		})
		if err != nil || len(texts) != tt.want || v.Total != tt.want || v.Rows != 3 || v.Digest == "" {
			t.Errorf("limit %d: %v, %v, %+v", tt.limit, err, texts, v)
		}
	}
	stop := errors.New("enough")
	n := 0
	if _, err := Inputs(context.Background(), b, root, Paths{}, 0, func(int, map[string]any) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("fn's error: %v after %d", err, n)
	}
	b.Data.Path = "data/exam.jsonl"
	var a *Abort
	if _, err := Inputs(context.Background(), b, root, Paths{}, 1, func(int, map[string]any) error { n++; return nil }); !errors.As(err, &a) || n != 1 {
		t.Errorf("bad row past the limit: %v, %d calls", err, n)
	}
}
