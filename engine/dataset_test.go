package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// datasetBench takes a document input so that artifact rules can be exercised.
const datasetBench = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: extract
  domain: legal
  language: en
program:
  input:
    text: string
    doc: document
  output:
    label:
      enum: [yes, no]
    n: int
scoring:
  weights:
    label: 1
    n: 1
  aggregator: weighted_mean
data:
  path: ./data/exam.jsonl
ai-system:
  type: external
  id: sys-1
`

const goodRow = `{"input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "yes", "n": 1}}`

// withDoc is goodRow with another artifact path.
func withDoc(doc string) string { return strings.Replace(goodRow, "files/a.txt", doc, 1) }

// TestDatasetFailures: every dataset failure of A.15 aborts the run with an *Abort carrying
// the code, line and path, and the AI-system is never called (nor even started). The rows
// that are not failures say what a dataset may do.
func TestDatasetFailures(t *testing.T) {
	thousand := strings.Repeat(goodRow+"\n", 1000)
	tests := []struct {
		rule  string
		data  string // the JSONL file; "-" for no file, "/" for a directory in its place
		code  diag.Code
		line  int
		path  []string
		valid int // when code is "": the number of examples run
	}{
		{rule: "a missing data file is data_not_found", data: "-", code: diag.DataNotFound, line: 1, path: []string{"data", "path"}},
		{rule: "a directory where the data file should be is data_not_found", data: "/", code: diag.DataNotFound, line: 1, path: []string{"data", "path"}},
		{rule: "malformed JSON is invalid_dataset_record at its line", data: jsonl(goodRow, `{"input": {"text": "t",`), code: diag.InvalidDatasetRecord, line: 2, path: []string{}},
		{rule: "a JSON array is not a row", data: jsonl(`["input", "expected"]`), code: diag.InvalidDatasetRecord, line: 1, path: []string{}},
		{rule: "a JSON null is not a row", data: jsonl(goodRow, goodRow, "null"), code: diag.InvalidDatasetRecord, line: 3, path: []string{}},
		{rule: "two JSON values on one line are not a row", data: jsonl(goodRow + goodRow), code: diag.InvalidDatasetRecord, line: 1, path: []string{}},
		{rule: "a row lacking expected is invalid", data: jsonl(`{"input": {"text": "t", "doc": "files/a.txt"}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"expected"}},
		{rule: "a row lacking input is invalid", data: jsonl(`{"expected": {"label": "yes", "n": 1}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"input"}},
		{rule: "a row with a key besides input and expected is invalid, and the key is not quoted", data: jsonl(`{"id": 7, "input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "yes", "n": 1}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{}},
		{rule: "an input of the wrong type is invalid, at input's path", data: jsonl(`{"input": {"text": 5, "doc": "files/a.txt"}, "expected": {"label": "yes", "n": 1}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"input", "text"}},
		{rule: "an input with an extra field is invalid, named by the object that has it, not by its key", data: jsonl(`{"input": {"text": "t", "doc": "files/a.txt", "hint": "x"}, "expected": {"label": "yes", "n": 1}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"input"}},
		{rule: "an input that is not an object is invalid", data: jsonl(`{"input": "t", "expected": {"label": "yes", "n": 1}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"input"}},
		{rule: "an expected value outside the enum is invalid", data: jsonl(`{"input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "maybe", "n": 1}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"expected", "label"}},
		{rule: "an expected value missing a field is invalid", data: jsonl(`{"input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "yes"}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"expected", "n"}},
		{rule: "an expected null is invalid (null is never valid)", data: jsonl(`{"input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "yes", "n": null}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"expected", "n"}},
		{rule: "an expected int written 1.0 is invalid", data: jsonl(`{"input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "yes", "n": 1.0}}`), code: diag.InvalidDatasetRecord, line: 1, path: []string{"expected", "n"}},
		{rule: "an artifact that does not exist is artifact_not_found", data: jsonl(withDoc("files/missing.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "an absolute artifact path is refused, even inside the tree", data: jsonl(withDoc("$ROOT/data/files/a.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "an artifact escaping the benchmark directory with ../ is refused", data: jsonl(withDoc("../../outside.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "an artifact escaping through files/../../../ is refused", data: jsonl(withDoc("files/../../../outside.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "a symbolic link pointing outside the benchmark directory is refused", data: jsonl(withDoc("files/link-out.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "a symbolic link to a directory outside is refused", data: jsonl(withDoc("outdir/outside.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "a directory is not a regular file", data: jsonl(withDoc("files")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "a directory whose name starts with .. is hidden", data: jsonl(withDoc("..x/c.txt")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "an empty artifact path is refused", data: jsonl(withDoc("")), code: diag.ArtifactNotFound, line: 1, path: []string{"input", "doc"}},
		{rule: "an empty file is an empty dataset", data: "", code: diag.InvalidDatasetRecord, line: 1, path: []string{}},
		{rule: "only blank lines is an empty dataset", data: "\n\n  \r\n\t\n", code: diag.InvalidDatasetRecord, line: 1, path: []string{}},
		{rule: "a bad row after 1,000 good ones aborts before any call, at line 1001", data: thousand + jsonl(`{"input": {"text": "t", "doc": "files/a.txt"}, "expected": {"label": "yes", "n": "1"}}`) + thousand, code: diag.InvalidDatasetRecord, line: 1001, path: []string{"expected", "n"}},
		{rule: "a missing artifact after 1,000 good rows aborts before any call", data: thousand + jsonl(withDoc("files/b.txt")), code: diag.ArtifactNotFound, line: 1001, path: []string{"input", "doc"}},
		{rule: "line numbers count blank lines", data: "\n\n" + jsonl(goodRow, "", "{}"), code: diag.InvalidDatasetRecord, line: 5, path: []string{"input"}},

		{rule: "blank lines and CRLF line ends are fine", data: "\r\n" + goodRow + "\r\n\r\n  \n" + goodRow + "\r\n", valid: 2},
		{rule: "the last row needs no line break", data: goodRow + "\n" + goodRow, valid: 2},
		{rule: "a ../ path that stays inside the benchmark directory is fine", data: jsonl(withDoc("../shared/b.txt"), withDoc("./files/../files/a.txt")), valid: 2},
		{rule: "a symbolic link to a file inside the benchmark directory is fine", data: jsonl(withDoc("files/link-in.txt")), valid: 1},
		{rule: "whitespace around a row is fine", data: jsonl("  " + goodRow + " \t"), valid: 1},
		{rule: "Unicode in values is fine", data: jsonl(`{"input": {"text": "東京 é \u00e9", "doc": "files/a.txt"}, "expected": {"label": "no", "n": -3}}`), valid: 1},
	}
	b := compileYAML(t, datasetBench)
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			top := t.TempDir()
			root := filepath.Join(top, "bench")
			testkit.WriteFiles(t, top, map[string]string{
				"outside.txt":            "secret",
				"bench/data/files/a.txt": "a",
				"bench/shared/b.txt":     "b",
				"bench/data/..x/c.txt":   "c",
			})
			mustSymlink(t, filepath.Join(top, "outside.txt"), filepath.Join(root, "data/files/link-out.txt"))
			mustSymlink(t, filepath.Join(root, "data/files/a.txt"), filepath.Join(root, "data/files/link-in.txt"))
			mustSymlink(t, top, filepath.Join(root, "data/outdir"))
			data := filepath.Join(root, "data/exam.jsonl")
			switch tt.data {
			case "-":
			case "/":
				if err := os.Mkdir(data, 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				abs := strings.ReplaceAll(filepath.ToSlash(root), `"`, `\"`)
				testkit.WriteFiles(t, root, map[string]string{"data/exam.jsonl": strings.ReplaceAll(tt.data, "$ROOT", abs)})
			}
			var c counter
			rr, err := run(t, b, root, &c, func(context.Context, int, map[string]any) (any, error) {
				return map[string]any{"label": "yes", "n": 1}, nil
			}, Options{Concurrency: 4})
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if rr.report.Summary.Examples != tt.valid || rr.report.Summary.Valid != tt.valid || c.calls.Load() != int64(tt.valid) {
					t.Errorf("summary %+v after %d calls, want %d valid examples", rr.report.Summary, c.calls.Load(), tt.valid)
				}
				return
			}
			var a *Abort
			if !errors.As(err, &a) {
				t.Fatalf("err = %v, want an *Abort", err)
			}
			d := a.Diagnostic
			if d.Code != tt.code || d.Line != tt.line || !slices.Equal(d.Path, tt.path) || d.Path == nil {
				t.Errorf("abort %s at line %d path %q, want %s at line %d path %q (%s)", d.Code, d.Line, d.Path, tt.code, tt.line, tt.path, d.Message)
			}
			if d.Phase != PhaseData || d.Message == "" || !diag.Registered(d.Code) || d.Column != 1 {
				t.Errorf("abort diagnostic %+v: want phase data, a message, a registered code, column 1", d)
			}
			if a.Diagnostic.File != data || !strings.Contains(a.Error(), string(d.Code)) {
				t.Errorf("abort names file %q (want %q), text %q", a.Diagnostic.File, data, a.Error())
			}
			if c.calls.Load() != 0 || c.made.Load() != 0 {
				t.Errorf("the dataset failed, yet %d adapters were started and %d calls made", c.made.Load(), c.calls.Load())
			}
		})
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
}

// TestDatasetUnderSymlinkedRoot: a benchmark reached through a symbolic link (a checkout
// under /tmp -> /private/tmp, a link to a shared drive) still accepts its own artifacts.
func TestDatasetUnderSymlinkedRoot(t *testing.T) {
	top := t.TempDir()
	testkit.WriteFiles(t, top, map[string]string{
		"real/data/exam.jsonl":  jsonl(goodRow),
		"real/data/files/a.txt": "a",
	})
	mustSymlink(t, filepath.Join(top, "real"), filepath.Join(top, "link"))
	var c counter
	rr, err := run(t, compileYAML(t, datasetBench), filepath.Join(top, "link"), &c, func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "yes", "n": 1}, nil
	}, Options{})
	if err != nil || rr.report.Summary.Valid != 1 {
		t.Fatalf("err %v, report %+v", err, rr)
	}
}

// TestHardeningDataPathEscapes (issue 11, finding 4): no dataset or artifact path reads a
// file outside the run's workspace, by .., an absolute path or a symbolic link (to a file
// or a folder), and none reads the runtime file, .env or the run store inside it. Each is
// refused before any AI-system starts, with data_not_found or artifact_not_found, and no
// byte of the file refused is in the error. --allow-outside (AllowOutside) widens the
// workspace to any path, never to a private file.
func TestHardeningDataPathEscapes(t *testing.T) {
	const secret = "~SECRET~" // every file that must not be read starts with it
	goodRows := jsonl(goodRow)
	tests := []struct {
		rule  string
		data  string // data.path; "$TOP" is the folder above the workspace
		rows  string // the rows of ws/bench/data/exam.jsonl; "" for goodRows
		paths Paths  // Workspace "" means ws (the test's workspace); "-" the benchmark's folder
		code  diag.Code
		why   string // in the message; "" when the run must succeed
	}{
		{rule: "data.path ../../outside.jsonl", data: "../../outside.jsonl", code: diag.DataNotFound, why: "lies outside the workspace"},
		{rule: "data.path absolute", data: "$TOP/outside.jsonl", code: diag.DataNotFound, why: "lies outside the workspace"},
		{rule: "data.path a symbolic link to a file outside", data: "./data/link-out.jsonl", code: diag.DataNotFound, why: "lies outside the workspace"},
		{rule: "data.path through a symbolic link to a folder outside", data: "./outdir/outside.jsonl", code: diag.DataNotFound, why: "lies outside the workspace"},
		{rule: "data.path to a missing file beyond a link out says outside, not missing", data: "./outdir/nothing.jsonl", code: diag.DataNotFound, why: "lies outside the workspace"},
		{rule: "data.path the runtime file", data: "../benchy.runtime.yaml", code: diag.DataNotFound, why: "is the runtime file"},
		{rule: "data.path .env", data: "../.env", code: diag.DataNotFound, why: "hidden"},
		{rule: "data.path the run store", data: "../.benchy/benchy.db", code: diag.DataNotFound, why: "hidden"},
		{rule: "data.path a link to .env", data: "./data/link-env.jsonl", code: diag.DataNotFound, why: "hidden"},
		{rule: "data.path a FIFO", data: "./data/fifo.jsonl", code: diag.DataNotFound, why: "not a regular file"},
		{rule: "artifact ../../../secret.png", rows: jsonl(withDoc("../../../secret.png")), code: diag.ArtifactNotFound, why: "lies outside the workspace"},
		{rule: "artifact a symbolic link out", rows: jsonl(withDoc("files/link-out.png")), code: diag.ArtifactNotFound, why: "lies outside the workspace"},
		{rule: "artifact the runtime file", rows: jsonl(withDoc("../../benchy.runtime.yaml")), code: diag.ArtifactNotFound, why: "is the runtime file"},
		{rule: "artifact .env", rows: jsonl(withDoc("../../.env")), code: diag.ArtifactNotFound, why: "hidden"},
		{rule: "artifact the run store", rows: jsonl(withDoc("../../.benchy/benchy.db")), code: diag.ArtifactNotFound, why: "hidden"},
		{rule: "artifact a link to the run store", rows: jsonl(withDoc("files/link-db.png")), code: diag.ArtifactNotFound, why: "hidden"},
		{rule: "artifact a FIFO", rows: jsonl(withDoc("files/fifo.png")), code: diag.ArtifactNotFound, why: "not a regular file"},
		{rule: "without a workspace, the benchmark's folder confines", data: "../shared/rows.jsonl", paths: Paths{Workspace: "-"}, code: diag.DataNotFound, why: "lies outside the benchmark's directory"},
		{rule: "the hint says how to allow it", data: "../../outside.jsonl", paths: Paths{Hint: "pass --allow-outside"}, code: diag.DataNotFound, why: "lies outside the workspace; pass --allow-outside"},
		{rule: "allow-outside still refuses .env", data: "../.env", paths: Paths{AllowOutside: true}, code: diag.DataNotFound, why: "hidden"},
		{rule: "allow-outside still refuses a hidden folder outside", data: "../../.hidden/rows.jsonl", paths: Paths{AllowOutside: true}, code: diag.DataNotFound, why: "hidden"},

		{rule: "a dataset elsewhere in the workspace is fine", data: "../shared/rows.jsonl"},
		{rule: "allow-outside reads a dataset outside", data: "../../rows.jsonl", paths: Paths{AllowOutside: true}},
		{rule: "allow-outside reads an artifact outside", rows: jsonl(withDoc("../../../a.txt")), paths: Paths{AllowOutside: true}},
	}
	b0 := compileYAML(t, datasetBench)
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			top := t.TempDir()
			ws := filepath.Join(top, "ws")
			root := filepath.Join(ws, "bench")
			rows := tt.rows
			if rows == "" {
				rows = goodRows
			}
			testkit.WriteFiles(t, top, map[string]string{
				"outside.jsonl":             secret + " outside\n",
				"outdir/outside.jsonl":      secret + " in a folder outside\n",
				"secret.png":                secret + " image",
				"rows.jsonl":                strings.ReplaceAll(goodRows, "files/a.txt", "ws/bench/data/files/a.txt"),
				"a.txt":                     "a",
				".hidden/rows.jsonl":        goodRows,
				"ws/.env":                   secret + "=1\n",
				"ws/benchy.runtime.yaml":    secret + ": runtime\n",
				"ws/.benchy/benchy.db":      secret + " store",
				"ws/shared/rows.jsonl":      strings.ReplaceAll(goodRows, "files/a.txt", "../bench/data/files/a.txt"),
				"ws/bench/data/exam.jsonl":  rows,
				"ws/bench/data/files/a.txt": "a",
			})
			mustSymlink(t, filepath.Join(top, "outside.jsonl"), filepath.Join(root, "data/link-out.jsonl"))
			mustSymlink(t, filepath.Join(top, "outdir"), filepath.Join(root, "outdir"))
			mustSymlink(t, filepath.Join(ws, ".env"), filepath.Join(root, "data/link-env.jsonl"))
			mustSymlink(t, filepath.Join(top, "secret.png"), filepath.Join(root, "data/files/link-out.png"))
			mustSymlink(t, filepath.Join(ws, ".benchy/benchy.db"), filepath.Join(root, "data/files/link-db.png"))
			for _, fifo := range []string{"data/fifo.jsonl", "data/files/fifo.png"} {
				if err := syscall.Mkfifo(filepath.Join(root, fifo), 0o644); err != nil {
					t.Skip("no FIFOs here:", err)
				}
			}
			b := *b0
			if tt.data != "" {
				b.Data.Path = strings.ReplaceAll(tt.data, "$TOP", filepath.ToSlash(top))
			}
			paths := tt.paths
			switch paths.Workspace {
			case "":
				paths.Workspace = ws
			case "-":
				paths.Workspace = ""
			}
			var c counter
			done := make(chan struct{})
			var rr *runResult
			var err error
			go func() {
				defer close(done)
				rr, err = run(t, &b, root, &c, func(context.Context, int, map[string]any) (any, error) {
					return map[string]any{"label": "yes", "n": 1}, nil
				}, Options{Paths: paths})
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the run hangs")
			}
			if tt.code == "" {
				if err != nil || rr.report.Summary.Valid != 1 {
					t.Fatalf("err %v, report %+v", err, rr)
				}
				return
			}
			var a *Abort
			if !errors.As(err, &a) {
				t.Fatalf("err = %v, want an *Abort", err)
			}
			if a.Diagnostic.Code != tt.code || !strings.Contains(a.Diagnostic.Message, tt.why) {
				t.Errorf("abort %s %q, want %s saying %q", a.Diagnostic.Code, a.Diagnostic.Message, tt.code, tt.why)
			}
			if msg := a.Error(); strings.Contains(msg, "SECRET") || strings.Contains(msg, "'~'") || strings.Contains(msg, `"~"`) {
				t.Errorf("the error shows the refused file's content: %s", msg)
			}
			if c.calls.Load() != 0 || c.made.Load() != 0 {
				t.Errorf("refused, yet %d adapters were started and %d calls made", c.made.Load(), c.calls.Load())
			}
		})
	}
}
