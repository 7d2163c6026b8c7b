package leaderboard

import (
	"strings"
	"testing"
)

// TestNotRanked: a system whose latest full run failed on every example (a model server
// not running) is not ranked at 0 beside the systems that ran: it is listed apart, with
// its run and why; one with some examples answered stays ranked.
func TestNotRanked(t *testing.T) {
	st := openStore(t)
	dead := make([]float64, 20)
	for i := range dead {
		dead[i] = -1
	}
	half := ones(20, 10)
	half[19] = -1
	(stored{label: "good", digest: digestA, q: ones(20, 15)}).store(t, st)
	(stored{label: "half", digest: digestA, q: half}).store(t, st)
	id := (stored{label: "dead", digest: digestA, q: dead}).store(t, st)
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	var ranked []string
	for _, e := range b.Entries {
		ranked = append(ranked, e.System)
	}
	if strings.Join(ranked, ",") != "good,half" {
		t.Errorf("ranked %v, want good and half", ranked)
	}
	var text strings.Builder
	if err := WriteText(&text, b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not ranked: dead (run " + id + "): every example", "  1  good  " + b.Entries[0].Run + "  the leader",
		"  2  half  " + b.Entries[1].Run + "  -0.2500 ["} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	if len(b.NotRanked) != 1 || b.NotRanked[0].System != "dead" || b.NotRanked[0].Run != id || !strings.Contains(b.NotRanked[0].Reason, "execution error") {
		t.Errorf("not ranked: %+v", b.NotRanked)
	}
}
