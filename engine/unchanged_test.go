//go:build linux

package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestValidatedUnchanged: Unchanged says a kept digest still names the dataset as it
// stands, by a stat of each file it was made of, and says false (validate again) for any
// change to the JSONL file or to an artifact a row names: one byte rewritten in place with
// its time set back, a file touched, removed or replaced by a link to a copy of itself. A
// file no row names changes nothing, and neither does reading the files.
func TestValidatedUnchanged(t *testing.T) {
	b := compileYAML(t, digestBench)
	setBack := func(p string) {
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name      string
		edit      func(t *testing.T, root string)
		unchanged bool
	}{
		{"nothing done", func(*testing.T, string) {}, true},
		{"the files read", func(t *testing.T, root string) {
			if _, err := os.ReadFile(filepath.Join(root, "data", "files", "p1.png")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a file no row names rewritten", func(t *testing.T, root string) {
			os.WriteFile(filepath.Join(root, "data", "files", "b.txt"), []byte("another"), 0o644)
		}, true},
		{"one byte of an artifact rewritten in place, its time set back", func(t *testing.T, root string) {
			p := filepath.Join(root, "data", "files", "p2.png")
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("T"), 13)
			f.Close()
			setBack(p)
		}, false},
		{"an artifact touched", func(t *testing.T, root string) { setBack(filepath.Join(root, "data", "files", "a.txt")) }, false},
		{"an artifact removed", func(t *testing.T, root string) { os.Remove(filepath.Join(root, "data", "files", "p1.png")) }, false},
		{"an artifact replaced by a link to a copy of itself", func(t *testing.T, root string) {
			p := filepath.Join(root, "data", "files", "p1.png")
			os.Rename(p, p+".copy")
			if err := os.Symlink("p1.png.copy", p); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"the JSONL file rewritten with its own bytes", func(t *testing.T, root string) {
			p := filepath.Join(root, "data", "exam.jsonl")
			os.WriteFile(p, []byte(jsonl(digestRows...)), 0o644)
			setBack(p)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits out the racy window once, together
			root := testkit.WriteFiles(t, t.TempDir(), digestFiles(jsonl(digestRows...)))
			fresh, err := DatasetDigest(context.Background(), b, root, Paths{})
			if err != nil {
				t.Fatal(err)
			}
			if fresh.Unchanged() {
				t.Error("a validation of files written just now vouches for them: one rewritten in the same clock tick would pass")
			}
			time.Sleep(2100 * time.Millisecond)
			v, err := DatasetDigest(context.Background(), b, root, Paths{})
			if err != nil {
				t.Fatal(err)
			}
			if v.Files() != 4 || !v.Unchanged() { // the JSONL file, a.txt (named twice), p1 and p2
				t.Fatalf("before any change: %d files, unchanged %v; want 4, true", v.Files(), v.Unchanged())
			}
			tc.edit(t, root)
			if got := v.Unchanged(); got != tc.unchanged {
				t.Errorf("Unchanged() = %v, want %v", got, tc.unchanged)
			}
		})
	}
}

// TestValidatedRemembersBounded: a validation remembers at most maxSeen artifact paths
// and maxSeenBytes of their bytes; past either it remembers none (Files is 0, Unchanged
// false) and the digest is the same.
func TestValidatedRemembersBounded(t *testing.T) {
	// Past maxSeenBytes: 1,100 hard links of 3,900-byte paths (4.1 MiB).
	root := t.TempDir()
	deep := filepath.Join(root, "data")
	for range 15 {
		deep = filepath.Join(deep, strings.Repeat("d", 250))
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(filepath.Join(root, "data"), deep)
	first := filepath.Join(deep, "a0000.txt")
	if err := os.WriteFile(first, []byte("the contract"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := maxSeenBytes/len(first) + 2
	rows := make([]string, n)
	for i := range n {
		name := filepath.Join(deep, fmt.Sprintf("a%04d.txt", i))
		if i > 0 {
			if err := os.Link(first, name); err != nil {
				t.Fatal(err)
			}
		}
		rows[i] = `{"input": {"text": "t", "doc": "` + filepath.ToSlash(filepath.Join(rel, filepath.Base(name))) + `"}, "expected": {"label": "yes", "page": "` + filepath.ToSlash(filepath.Join(rel, "a0000.txt")) + `"}}`
	}
	testkit.WriteFiles(t, root, map[string]string{"data/exam.jsonl": jsonl(rows...)})
	b := compileYAML(t, digestBench)
	v, err := DatasetDigest(context.Background(), b, root, Paths{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Files() != 0 || v.Unchanged() {
		t.Errorf("%d paths of %d bytes: Files %d, unchanged %v; want 0, false", n, len(first), v.Files(), v.Unchanged())
	}
	// Past maxSeen: the map full, one more path.
	d := newDigester()
	for i := range maxSeen {
		d.seen[fmt.Sprintf("/p%d", i)] = versionKey{ino: uint64(i)}
	}
	f, err := os.Open(first)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	d.artifact(f, info)
	if d.seen != nil || d.versions() != nil {
		t.Errorf("%d paths remembered, at most %d", len(d.seen), maxSeen)
	}
}
