package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/cluster/slurm"
	"github.com/benchy-eval/benchy/engine"
)

// TestParseShard: --shard K/N and auto, their bound on N (a merge of 10^12 shards ran out
// of memory) and the environment auto reads, both a Slurm task's and a pod's at once being
// refused as ambiguous.
func TestParseShard(t *testing.T) {
	cases := []struct {
		name   string
		spec   string
		shards int
		env    map[string]string
		want   engine.Shard
		err    string // "" for none
	}{
		{"K/N", "2/4", 0, nil, engine.Shard{K: 2, N: 4}, ""},
		{"the most shards", "0/100000", 0, nil, engine.Shard{K: 0, N: 100000}, ""},
		{"too many shards", "0/100001", 0, nil, engine.Shard{}, "at most 100000"},
		{"far too many shards", "0/1000000000000", 0, nil, engine.Shard{}, "at most 100000"},
		{"K past N", "4/4", 0, nil, engine.Shard{}, "want K/N"},
		{"auto from Slurm", "auto", 4, map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, engine.Shard{K: 3, N: 4}, ""},
		{"auto from a pod", "auto", 4, map[string]string{"JOB_COMPLETION_INDEX": "1"}, engine.Shard{K: 1, N: 4}, ""},
		{"auto from Slurm's count", "auto", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, engine.Shard{K: 1, N: 2}, ""},
		{"auto, both set", "auto", 4, map[string]string{"SLURM_ARRAY_TASK_ID": "1", "JOB_COMPLETION_INDEX": "2"}, engine.Shard{}, "ambiguous"},
		{"auto, too many shards", "auto", 100001, map[string]string{"JOB_COMPLETION_INDEX": "2"}, engine.Shard{}, "at most 100000"},
		{"auto, nothing set", "auto", 4, nil, engine.Shard{}, "neither"},
	}
	for _, c := range cases {
		got, err := parseShard(c.spec, c.shards, func(k string) string { return c.env[k] })
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %v, %v; want %v, %q", c.name, got, err, c.want, c.err)
		}
	}
}

// TestShardList: --only takes shard numbers and the ranges benchy merge names ("1-99999").
func TestShardList(t *testing.T) {
	var s shardList
	if err := s.Set("0,3-5"); err != nil || fmt.Sprint(s) != "[0 3 4 5]" {
		t.Errorf("0,3-5: %v %v", s, err)
	}
	for _, bad := range []string{"x", "-1", "5-3", "0-100000", "1-"} {
		var s shardList
		if err := s.Set(bad); err == nil {
			t.Errorf("%q: no error, %v", bad, s)
		}
	}
}

// TestShardState: benchy slurm status says a journal with more lines than its shard's
// examples is damaged, and what to remove, rather than "4 of 2, complete".
func TestShardState(t *testing.T) {
	cases := []struct {
		p    slurm.Progress
		want string
	}{
		{slurm.Progress{K: 0, N: 2}, "missing: not started"},
		{slurm.Progress{K: 0, N: 2, Started: true, Examples: 2, Done: 1, Lines: 1}, "1 of 2"},
		{slurm.Progress{K: 0, N: 2, Started: true, Examples: 2, Done: 2, Lines: 2, Complete: true}, "2 of 2, complete"},
		{slurm.Progress{K: 1, N: 2, Started: true, Examples: 2, Done: 2, Lines: 4, Complete: true, Damaged: true},
			"damaged: its journal has 4 lines for 2 examples; remove out/shard-1-of-2/results.jsonl and run it again"},
	}
	for _, c := range cases {
		if got := shardState("out", c.p); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
