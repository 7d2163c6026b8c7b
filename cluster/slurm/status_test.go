package slurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
)

// TestShards: a shard's progress counts its journal's lines up to its examples; a journal
// with more lines than its shard has examples (two runs of it wrote it: status said "4 of
// 2, complete") is damaged.
func TestShards(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		k, examples, lines int
		done               int
		damaged            bool
	}{{0, 2, 1, 1, false}, {1, 2, 2, 2, false}, {2, 2, 4, 2, true}}
	for _, c := range cases {
		s := engine.Shard{K: c.k, N: 4}
		sd := shard.Dir(dir, s)
		os.MkdirAll(sd, 0o755)
		if err := shard.WriteManifest(sd, &shard.Manifest{K: c.k, N: 4, Examples: c.examples, Complete: c.lines >= c.examples}); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(sd, shard.JournalFile), []byte(strings.Repeat("{}\n", c.lines)), 0o644)
	}
	got, err := Shards(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		p := got[c.k]
		if p.Done != c.done || p.Damaged != c.damaged || p.Lines != c.lines || !p.Started {
			t.Errorf("shard %d: %+v, want %d done, damaged %v", c.k, p, c.done, c.damaged)
		}
	}
	if p := got[3]; p.Started || p.Damaged {
		t.Errorf("shard 3, never run: %+v", p)
	}
}
