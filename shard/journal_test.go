package shard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// line is a result line of example index, as the engine writes one.
func line(index int) string {
	return fmt.Sprintf(`{"index":%d,"status":"valid","prediction":{},"field_scores":[],"score":1,"contribution":1,"error":null}`+"\n", index)
}

// TestJournal: a journal is continued from its complete lines, in the shard's index order;
// a torn last line is cut off; a damaged line before the last, or a line of another shard,
// refuses it; a second run of the shard while the first holds it is refused.
func TestJournal(t *testing.T) {
	s := engine.Shard{K: 1, N: 3} // examples 1, 4, 7, ...
	for _, tc := range []struct {
		name, text string
		kept       int
		torn       int64
		refused    string
	}{
		{"empty", "", 0, 0, ""},
		{"whole", line(1) + line(4), 2, 0, ""},
		{"torn", line(1) + line(4) + `{"index":7,"sta`, 2, 15, ""},
		{"no newline", line(1) + strings.TrimSuffix(line(4), "\n"), 1, int64(len(line(4)) - 1), ""},
		{"damaged before the last", line(1) + "garbage\n" + line(7), 0, 0, "line 2 is not result 4 of shard 1/3"},
		{"another shard's", line(1) + line(5) + line(7), 0, 0, "line 2 is not result 4"},
		{"from the middle", line(4), 0, 0, "line 1 is not result 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), JournalFile)
			os.WriteFile(path, []byte(tc.text), 0o644)
			j, err := OpenJournal(path, s)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("err %v, want it refused with %q", err, tc.refused)
				}
				if data, _ := os.ReadFile(path); string(data) != tc.text {
					t.Errorf("a refused journal was changed: %q", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if j.Kept() != tc.kept || j.Torn() != tc.torn {
				t.Errorf("kept %d, torn %d; want %d, %d", j.Kept(), j.Torn(), tc.kept, tc.torn)
			}
			for i := range tc.kept {
				if res, ok := j.Prior(s.Index(i)); !ok || res.Index != s.Index(i) {
					t.Errorf("prior %d: %v %v", s.Index(i), res.Index, ok)
				}
			}
			if _, err := OpenJournal(path, s); err == nil || !strings.Contains(err.Error(), "being run by another process") {
				t.Errorf("a second run of the shard: %v", err)
			}
			// The engine writes the kept lines again first: they are dropped, the rest kept.
			var again strings.Builder
			for i := range tc.kept + 1 {
				again.WriteString(line(s.Index(i)))
			}
			j.Write([]byte(again.String()))
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if want := again.String(); string(data) != want {
				t.Errorf("journal after the run:\n%s\nwant:\n%s", data, want)
			}
		})
	}
}
