package leaderboard

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestWriteTextWording: a board of one system says only what applies to it: its run, with
// no "each difference to the leader" and no "the leader" beside its only row (the old text
// said both); one unrecorded run is "1 completed run is", not "1 completed runs are".
func TestWriteTextWording(t *testing.T) {
	st := openStore(t)
	id := (stored{label: "solo", digest: digestA, q: ones(10, 7)}).store(t, st)
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name       string
		unrecorded int
		want       []string
		not        []string
	}{
		{"one system", 0, []string{"\nthe run:\n  1  solo  " + id + "\n"}, []string{"difference", "leader", "significant"}},
		{"one unrecorded run", 1, []string{"1 completed run is on no board"}, []string{"runs are"}},
		{"two unrecorded runs", 2, []string{"2 completed runs are on no board"}, nil},
	} {
		board := b
		board.Unrecorded = tt.unrecorded
		var buf bytes.Buffer
		if err := WriteText(&buf, board); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, want := range tt.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", tt.name, want, out)
			}
		}
		for _, not := range tt.not {
			if strings.Contains(out, not) {
				t.Errorf("%s: %q in\n%s", tt.name, not, out)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.TrimRight(line, " ") != line {
				t.Errorf("%s: trailing spaces in %q", tt.name, line)
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, api.Leaderboard{}); err != nil || !strings.HasPrefix(buf.String(), "no completed full run") || strings.Contains(buf.String(), "the run:") {
		t.Errorf("an empty board: %v\n%s", err, buf.String())
	}
}
