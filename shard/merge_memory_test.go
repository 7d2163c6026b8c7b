package shard

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// forgeLine replaces the journal line of example index in shard k of n under dir with line.
func forgeLine(t *testing.T, dir string, k, n, index int, line string) {
	t.Helper()
	p := filepath.Join(Dir(dir, engine.Shard{K: k, N: n}), JournalFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	prefix := []byte(`{"index":` + strconv.Itoa(index) + `,`)
	for i, l := range lines {
		if bytes.HasPrefix(l, prefix) {
			lines[i] = []byte(line)
			if err := os.WriteFile(p, bytes.Join(lines, nil), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no line of example %d in %s", index, p)
}

// allocated is what fn allocates: bytes and objects.
func allocated(fn func()) (bytes, objects uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// TestMergeBoundsLineMemory: a journal line of 8 MiB whose prediction is an array of 4
// million zeros costs the merge a few times its bytes and no allocation per element,
// whether it claims valid (refused: no output of the program holds an array) or
// invalid_output (refused: a run keeps at most 1 MiB of an invalid output); an invalid
// output of as much as a run keeps, with the error the program's check gives it (a
// genuine AI-system may answer so), is merged, and the document holds it byte for byte.
func TestMergeBoundsLineMemory(t *testing.T) {
	const size = 8 << 20
	zeros := strings.Repeat("0,", size/2) + "0"
	kept := strings.Repeat("0,", (engine.MaxKeptPrediction-64)/2) + "0" // as much as a run keeps of an invalid output
	invalid := func(zeros string) string {
		return `{"index":1,"status":"invalid_output","prediction":[` + zeros + `],"field_scores":null,"score":null,"contribution":0,"error":{"code":"wrong_type","path":[],"message":"the object must be an object with fields label; found an array"}}` + "\n"
	}
	for _, c := range []struct {
		name, line string
		refused    bool
	}{
		{"claimed valid", `{"index":1,"status":"valid","prediction":{"label":[` + zeros + `]},"field_scores":[{"path":["label"],"score":1,"weight":1}],"score":1,"contribution":1,"error":null}` + "\n", true},
		{"invalid output past what a run keeps", invalid(zeros), true},
		{"invalid output", invalid(kept), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			want := writeSet(t, dir, 6, 2)
			dir = filepath.Join(dir, "shards")
			forgeLine(t, dir, 1, 2, 1, c.line)
			set, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			var rep *engine.Report
			b, n := allocated(func() { rep, err = set.Report(want, nil) })
			t.Logf("%s: %d MiB allocated in %d objects for a line of %d MiB", c.name, b>>20, n, len(c.line)>>20)
			if c.refused != (err != nil) {
				t.Fatalf("merge: %v, want refused %v", err, c.refused)
			}
			if b > 6*uint64(len(c.line))+8<<20 || n > 10_000 { // its buffers apart
				t.Errorf("the merge allocated %d MiB in %d objects for a line of %d MiB: want at most 6 times the line (and 8 MiB of buffers), and no object per element", b>>20, n, len(c.line)>>20)
			}
			if c.refused {
				return
			}
			var doc bytes.Buffer
			if err := set.WriteDocument(&doc, rep); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(doc.Bytes(), []byte(strings.TrimSuffix(c.line, "\n"))) {
				t.Errorf("the document does not hold the line as written")
			}
		})
	}
}
