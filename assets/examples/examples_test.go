// Package examples_test checks the examples workspace: every benchmark compiles to its
// recorded IR hash, every dataset is valid, and each example runs end to end against its
// real AI-system with the score the README reports.
package examples_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/ir-hashes.txt")

// benchmarks lists the workspace's benchmark files, relative to it.
func benchmarks(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "testdata" || d.Name() == "internal") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") && d.Name() != "benchy.runtime.yaml" {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func compile(t *testing.T, p string) (*ir.Benchmark, string) {
	t.Helper()
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		t.Fatalf("%s does not compile:\n%s", p, ds.Format(p))
	}
	canonical, err := ir.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if formatted, err := compiler.Format(src); err != nil || string(formatted) != string(src) {
		t.Errorf("%s is not canonical (benchy fmt changes it)", p)
	}
	return b, ir.Hash(canonical)
}

// TestCompile compiles every example to the IR hash recorded in testdata/ir-hashes.txt.
func TestCompile(t *testing.T) {
	const golden = "testdata/ir-hashes.txt"
	var got strings.Builder
	for _, p := range benchmarks(t) {
		_, hash := compile(t, p)
		got.WriteString(p + " " + hash + "\n")
	}
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./assets/examples -run TestCompile -update writes it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("IR hashes changed (a deliberate change: -update):\ngot\n%s\nwant\n%s", got.String(), want)
	}
}

// failing is an AI-system that answers nothing: running against it checks the dataset alone.
type failing struct{}

func (failing) Invoke(context.Context, int, map[string]any) (any, error) {
	return nil, errors.New("no system")
}
func (failing) Close() error { return nil }

// TestDatasets validates every example's dataset (rows, types, artifact files) without
// its AI-system.
func TestDatasets(t *testing.T) {
	for _, p := range benchmarks(t) {
		t.Run(p, func(t *testing.T) {
			b, _ := compile(t, p)
			rep, err := engine.Run(context.Background(), b, func() (engine.Adapter, error) { return failing{}, nil },
				engine.Options{BenchmarkDir: filepath.Dir(p), Concurrency: 2})
			if err != nil {
				t.Fatalf("dataset of %s: %v", p, err)
			}
			if rep.Summary.Examples == 0 {
				t.Fatalf("%s has no examples", p)
			}
		})
	}
}

// An example of the README's table: | name | file | ... | score | [lo, hi] | ...
var scoreRow = regexp.MustCompile(`^\| *([^|]+?) *\| *` + "`" + `([^` + "`" + `]+)` + "`" + ` *\|.*?\| *([01]\.\d{4}) *\|`)

// readmeScores are the scores the README's table of examples reports, by benchmark file.
func readmeScores(t *testing.T) map[string]float64 {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scores := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := scoreRow.FindStringSubmatch(sc.Text()); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			scores[m[2]] = v
		}
	}
	return scores
}

var built struct {
	once      sync.Once
	dir, bin  string
	err       error
	buildLogs string
}

// build compiles benchy and the examples' adapters (as `make examples` does) once.
func build(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		root, _ := filepath.Abs("../..")
		built.dir = filepath.Join(root, "bin")
		built.bin = filepath.Join(built.dir, "benchy-examples-test")
		for _, args := range [][]string{
			{"build", "-o", built.bin, "./cmd/benchy"},
			{"build", "-o", filepath.Join(built.dir, "examples") + "/", "./assets/examples/..."},
		} {
			cmd := exec.Command("go", args...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				built.err = errors.New(strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out))
				return
			}
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

var scoreLine = regexp.MustCompile(`score (\d\.\d{4})`)

// TestRunExamples runs every example whose AI-system is installed here, with `benchy run`,
// and compares its score with the README's. With BENCHY_EXAMPLES=1 (make test, CI) a system
// that is not installed fails the test instead of skipping it.
func TestRunExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real AI-systems")
	}
	want := readmeScores(t)
	for _, p := range benchmarks(t) {
		t.Run(p, func(t *testing.T) {
			b, _ := compile(t, p)
			if b.AISystem.Type == ir.SystemModel {
				t.Skip("needs a model provider (a key or a local server)")
			}
			score, ok := want[p]
			if !ok {
				t.Fatalf("the README's table of examples has no score for %s", p)
			}
			bin := build(t)
			out := filepath.Join(t.TempDir(), "results.json")
			cmd := exec.Command(bin, "run", "--no-store", "--runtime", "benchy.runtime.yaml", "-o", out, p)
			stderr, err := cmd.CombinedOutput()
			if strings.Contains(string(stderr), "missing_binding") && os.Getenv("BENCHY_EXAMPLES") != "1" {
				t.Skipf("AI-system not installed here (make examples-deps): %s", firstLine(string(stderr)))
			}
			if err != nil {
				t.Fatalf("benchy run %s: %v\n%s", p, err, stderr)
			}
			m := scoreLine.FindStringSubmatch(string(stderr))
			if m == nil {
				t.Fatalf("benchy run printed no score:\n%s", stderr)
			}
			got, _ := strconv.ParseFloat(m[1], 64)
			var doc struct {
				Summary engine.Summary `json:"summary"`
			}
			if data, err := os.ReadFile(out); err != nil || json.Unmarshal(data, &doc) != nil {
				t.Fatalf("reading the result document: %v", err)
			}
			// Sane statuses: every example has one, most answers are valid, and an adapter
			// that fails on everything shows here rather than as a low score.
			s := doc.Summary
			if s.Valid+s.InvalidOutputs+s.ExecutionErrors != s.Examples || s.Valid*2 < s.Examples || s.ExecutionErrors*4 > s.Examples {
				t.Errorf("%s: statuses %+v", p, s)
			}
			if d := got - score; d > 0.02 || d < -0.02 {
				t.Errorf("%s scored %.4f; the README says %.4f (update the README's table if the change is intended)", p, got, score)
			}
			t.Logf("%s: score %.4f (README %.4f)", p, got, score)
		})
	}
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "missing_binding") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
