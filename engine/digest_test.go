package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// digestBench reads an artifact on each side: a document in, an image expected.
const digestBench = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: legal, language: en}
program:
  input: {text: string, doc: document}
  output:
    label: {enum: [yes, no]}
    page: image
scoring: {weights: {label: 1, page: 1}, aggregator: weighted_mean}
data: {path: ./data/exam.jsonl}
ai-system: {type: external, id: sys-1}
`

// digestRows are the exam of the digest tests: two rows, the first document named twice.
var digestRows = []string{
	`{"input": {"text": "one", "doc": "files/a.txt"}, "expected": {"label": "yes", "page": "files/p1.png"}}`,
	`{"input": {"text": "two", "doc": "files/a.txt"}, "expected": {"label": "no", "page": "files/p2.png"}}`,
}

// digestFiles is the workspace of the digest tests, with the JSONL text given.
func digestFiles(exam string) map[string]string {
	return map[string]string{
		"data/exam.jsonl":     exam,
		"data/files/a.txt":    "the contract",
		"data/files/b.txt":    "the contract", // a.txt's bytes under another name
		"data/files/p1.png":   "\x89PNG page one",
		"data/files/p2.png":   "\x89PNG page two",
		"data/other/a.txt":    "the contract",
		"data/files/same.png": "\x89PNG page one",
	}
}

// digestOf is the dataset digest of the benchmark in root, by DatasetDigest and by a run
// (with limit), which must agree: a run records the digest its validation pass found.
func digestOf(t *testing.T, b *ir.Benchmark, root string, limit int) string {
	t.Helper()
	v, err := DatasetDigest(context.Background(), b, root, Paths{})
	if err != nil {
		t.Fatalf("DatasetDigest: %v", err)
	}
	var told Validated
	var c counter
	rr, err := run(t, b, root, &c, func(context.Context, int, map[string]any) (any, error) {
		return nil, errors.New("no answer: only the digest matters here")
	}, Options{Limit: limit, Concurrency: 1, Validated: func(v Validated) error { told = v; return nil }})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if rr.report.DatasetDigest != v.Digest || told.Digest != v.Digest {
		t.Fatalf("the run recorded %q (told %q), DatasetDigest gave %q", rr.report.DatasetDigest, told.Digest, v.Digest)
	}
	if !strings.HasPrefix(v.Digest, "sha256:") || len(v.Digest) != len("sha256:")+64 {
		t.Fatalf("digest %q is not sha256: and 64 hex digits", v.Digest)
	}
	return v.Digest
}

// TestDatasetDigestIdentity: a table of what changes a dataset's digest and what does not,
// each row a sentence of engine/digest.go's rule. Each row starts from the same exam and
// edits a fresh copy of it.
func TestDatasetDigestIdentity(t *testing.T) {
	b := compileYAML(t, digestBench)
	base := jsonl(digestRows...)
	baseRoot := testkit.WriteFiles(t, t.TempDir(), digestFiles(base))
	want := digestOf(t, b, baseRoot, 0)
	write := func(name, text string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	exam := func(text string) func(t *testing.T, root string) { return write("data/exam.jsonl", text) }
	tests := []struct {
		rule    string
		edit    func(t *testing.T, root string)
		limit   int
		changes bool
	}{
		{"nothing edited: the same exam, the same digest", func(*testing.T, string) {}, 0, false},
		{"one byte of a row's text", exam(strings.Replace(base, `"one"`, `"onE"`, 1)), 0, true},
		{"a blank line added between the rows (ignored by the run, not by the digest)", exam(digestRows[0] + "\n\n" + digestRows[1] + "\n"), 0, true},
		{"a blank line of one space at the end", exam(base + " \n"), 0, true},
		{"the final line break removed", exam(strings.TrimSuffix(base, "\n")), 0, true},
		{"line breaks written CRLF", exam(strings.ReplaceAll(base, "\n", "\r\n")), 0, true},
		{"a byte order mark added", exam("\ufeff" + base), 0, true},
		{"white space inside a row", exam(strings.Replace(base, `"input": {`, `"input":{`, 1)), 0, true},
		{"the two rows swapped", exam(jsonl(digestRows[1], digestRows[0])), 0, true},
		{"one byte of an input artifact", write("data/files/a.txt", "the contracT"), 0, true},
		{"one byte of an expected artifact", write("data/files/p2.png", "\x89PNG page twO"), 0, true},
		{"an input artifact one byte longer", write("data/files/a.txt", "the contract."), 0, true},
		// The artifact lines hold the bytes only, but the path is in the JSONL bytes: another
		// file with the same bytes is another exam text, so the digest changes.
		{"another input artifact with the same bytes (the path text differs)", exam(strings.Replace(base, "files/a.txt", "files/b.txt", 1)), 0, true},
		{"another expected artifact with the same bytes", exam(strings.Replace(base, "files/p1.png", "files/same.png", 1)), 0, true},
		{"the same artifact by another spelling of its path", exam(strings.Replace(base, "files/a.txt", "./files/a.txt", 1)), 0, true},
		// Same path text, same bytes, another file behind it: nothing the exam says changed.
		{"an artifact replaced by a link to a file of the same bytes", func(t *testing.T, root string) {
			a := filepath.Join(root, "data", "files", "a.txt")
			os.Remove(a)
			mustSymlink(t, "../other/a.txt", a)
		}, 0, false},
		{"an artifact's folder replaced by a copy elsewhere, linked", func(t *testing.T, root string) {
			files := filepath.Join(root, "data", "files")
			moved := filepath.Join(root, "moved")
			if err := os.Rename(files, moved); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, "../moved", files)
		}, 0, false},
		{"an artifact rewritten with the same bytes", write("data/files/p1.png", "\x89PNG page one"), 0, false},
		{"an artifact's times changed only", func(t *testing.T, root string) {
			old := time.Now().Add(-48 * time.Hour)
			if err := os.Chtimes(filepath.Join(root, "data", "files", "a.txt"), old, old); err != nil {
				t.Fatal(err)
			}
		}, 0, false},
		{"a file the exam does not name, changed", write("data/files/b.txt", "something else"), 0, false},
		{"a new file beside the dataset", write("data/notes.md", "# notes"), 0, false},
		{"--limit 1: the whole file is digested all the same", func(*testing.T, string) {}, 1, false},
		{"--limit 1 over a change in the row it does not run", exam(strings.Replace(base, `"two"`, `"tw0"`, 1)), 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			root := testkit.WriteFiles(t, t.TempDir(), digestFiles(base))
			tt.edit(t, root)
			got := digestOf(t, b, root, tt.limit)
			if changed := got != want; changed != tt.changes {
				t.Errorf("digest %s, base %s: changed %v, want %v", got, want, changed, tt.changes)
			}
		})
	}
}

// TestDatasetDigestMovedWorkspace: the same exam in another folder, reached through
// another path (moved, and under a link), has the same digest.
func TestDatasetDigestMovedWorkspace(t *testing.T) {
	b := compileYAML(t, digestBench)
	parent := t.TempDir()
	first := testkit.WriteFiles(t, filepath.Join(parent, "first", "deep"), digestFiles(jsonl(digestRows...)))
	want := digestOf(t, b, first, 0)
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(filepath.Join(parent, "first"), moved); err != nil {
		t.Fatal(err)
	}
	if got := digestOf(t, b, filepath.Join(moved, "deep"), 0); got != want {
		t.Errorf("moved: %s, was %s", got, want)
	}
	link := filepath.Join(t.TempDir(), "link")
	mustSymlink(t, moved, link)
	if got := digestOf(t, b, filepath.Join(link, "deep"), 0); got != want {
		t.Errorf("through a link: %s, was %s", got, want)
	}
}

// TestDatasetDigestPinned: the digest of a fixed tiny exam, both as a literal and rebuilt
// from engine/digest.go's documented text, so that any change to its order or format fails
// here (runs stored before such a change could no longer be compared with new ones: bump
// DigestVersion instead). The same artifact named twice gives two lines.
func TestDatasetDigestPinned(t *testing.T) {
	b := compileYAML(t, digestBench)
	files := digestFiles(jsonl(digestRows...))
	root := testkit.WriteFiles(t, t.TempDir(), files)
	got := digestOf(t, b, root, 0)
	text := "benchy-dataset-digest 1\n"
	for _, name := range []string{"a.txt", "p1.png", "a.txt", "p2.png"} { // row by row, input before expected
		text += "artifact " + hexOf(files["data/files/"+name]) + "\n"
	}
	text += "jsonl " + hexOf(files["data/exam.jsonl"]) + "\n"
	if want := "sha256:" + hexOf(text); got != want {
		t.Errorf("digest %s, the documented text gives %s", got, want)
	}
	const pinned = "sha256:4686c319a51fa628299baa5f3140584bb87a3db1c3e46d03ddbf38b00645418f"
	if got != pinned {
		t.Errorf("digest %s, pinned %s: the digest's bytes changed (bump DigestVersion and say so)", got, pinned)
	}
	if DigestVersion != 1 {
		t.Errorf("DigestVersion %d: pin the new version's digest here", DigestVersion)
	}
}

// TestDatasetDigestCacheNeverStale: the in-process cache of artifact sums never serves the
// sum of an earlier version of a file. An artifact rewritten with the same size, its
// modification time set back, is another version (its change time moved); a file changed
// within the last two seconds is hashed but not remembered (git's racily clean rule), and
// one older than that is remembered and served.
func TestDatasetDigestCacheNeverStale(t *testing.T) {
	b := compileYAML(t, digestBench)
	root := testkit.WriteFiles(t, t.TempDir(), digestFiles(jsonl(digestRows...)))
	a := filepath.Join(root, "data", "files", "a.txt")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	keyOf := func() versionKey {
		info, err := os.Stat(a)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := fileKey(info)
		return k
	}
	cached := func() bool { _, ok := sums.get(keyOf()); return ok }

	// Racy: its change time is now, whatever its modification time says.
	fresh := digestOf(t, b, root, 0)
	if cached() {
		t.Error("a file changed less than two seconds ago was remembered")
	}
	time.Sleep(2100 * time.Millisecond)
	if got := digestOf(t, b, root, 0); got != fresh {
		t.Fatalf("the same files: %s, then %s", fresh, got)
	}
	if !cached() {
		t.Skip("no change time here: nothing is remembered") // fileKey outside Linux
	}
	// Served from the cache: a wrong sum planted under the file's key is what comes back,
	// which proves the next check reads the cache and not the file.
	k := keyOf()
	sums.put(k, hexOf("planted"))
	if got := digestOf(t, b, root, 0); got == fresh {
		t.Fatal("the cache was not read for a file older than two seconds")
	}
	sums.put(k, hexOf("the contract"))

	// Rewritten, the same size, the modification time set back: read again.
	if err := os.WriteFile(a, []byte("the contracT"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(a); info.Size() != int64(len("the contract")) || !info.ModTime().Equal(old) {
		t.Fatalf("the rewrite is not the same size and time: %v %v", info.Size(), info.ModTime())
	}
	rewritten := digestOf(t, b, root, 0)
	if rewritten == fresh {
		t.Error("an artifact rewritten with the same size and modification time kept the old digest: the cache served a stale sum")
	}
	// And back: the first bytes give the first digest.
	if err := os.WriteFile(a, []byte("the contract"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := digestOf(t, b, root, 0); got != fresh {
		t.Errorf("the first bytes again: %s, want %s", got, fresh)
	}
}

// hexOf is the hex SHA-256 of s, as an artifact line holds it.
func hexOf(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// TestDatasetDigestCacheFull: a full cache is emptied, never wrong: more sums than it holds
// still give the same digest.
func TestDatasetDigestCacheFull(t *testing.T) {
	var c sumCache
	for i := range maxSums + 3 {
		c.put(versionKey{ino: uint64(i)}, "x")
	}
	if len(c.m) > maxSums {
		t.Errorf("%d sums held, at most %d", len(c.m), maxSums)
	}
	if s, ok := c.get(versionKey{ino: maxSums + 2}); !ok || s != "x" {
		t.Errorf("the last sum put is not held: %q %v", s, ok)
	}
}
