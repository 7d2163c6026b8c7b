package cli_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/server"
	"github.com/benchy-eval/benchy/store"
)

// program is a Go program the tests build once per test binary.
type program struct {
	pkg  string // its package folder, relative to this one
	once sync.Once
	path string
	err  error
}

// build returns the program's binary, building it on the first call.
func (p *program) build(t *testing.T) string {
	t.Helper()
	p.once.Do(func() {
		dir, err := os.MkdirTemp("", "benchy-cli-"+filepath.Base(p.pkg))
		if err != nil {
			p.err = err
			return
		}
		p.path = filepath.Join(dir, filepath.Base(p.pkg))
		if out, err := exec.Command("go", "build", "-o", p.path, p.pkg).CombinedOutput(); err != nil {
			p.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if p.err != nil {
		t.Fatalf("building %s: %v", p.pkg, p.err)
	}
	return p.path
}

var slowAdapter = &program{pkg: "../../server/testdata/slow-adapter"}

// slowBin is the server's slow stand-in adapter (server/testdata/slow-adapter).
func slowBin(t *testing.T) string { return slowAdapter.build(t) }

// slowBenchmark is the benchmark the slow adapter answers.
const slowBenchmark = "../../server/testdata/slow-adapter/benchmark.yaml"

// slowWorkspace is a workspace with benchmark.yaml over n examples in data/rows.jsonl (a
// dataset in a folder of its own), bound to the slow adapter taking delay per answer and
// logging each call to calls.log.
func slowWorkspace(t *testing.T, n int, delay time.Duration) string {
	t.Helper()
	dir := t.TempDir()
	var rows strings.Builder
	for i := range n {
		text := fmt.Sprintf("ex-%02d", i)
		fmt.Fprintf(&rows, `{"input": {"text": %q}, "expected": {"number": %q, "total": %d}}`+"\n", text, text, len(text))
	}
	runtime := fmt.Sprintf("bindings:\n  slow-system:\n    command: [%q, -log, %q, -delay, %q]\n    timeout: 30s\n",
		slowBin(t), filepath.Join(dir, "calls.log"), strconv.Itoa(int(delay.Milliseconds())))
	bench, err := os.ReadFile(slowBenchmark)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":      strings.Replace(string(bench), "data: {path: data.jsonl}", "data: {path: data/rows.jsonl}", 1),
		"data/rows.jsonl":     rows.String(),
		"benchy.runtime.yaml": runtime,
	})
	return dir
}

// calls is how many requests the slow adapter of workspace dir has had.
func calls(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "calls.log"))
	return strings.Count(string(b), "\n")
}

// TestHardeningOutputNeverOverwritesInputs: -o is refused, before any AI-system call, when
// the result document or its stream would be, by any path, a file the run reads: the
// dataset through a linked folder or a hard link, the benchmark, the runtime file, an
// artifact; or, by name, any runtime file or a hidden file of the workspace. Results already there are replaced, never written through: a hard link or a
// symbolic link at -o keeps what it pointed to.
func TestHardeningOutputNeverOverwritesInputs(t *testing.T) {
	dir := slowWorkspace(t, 3, 0)
	in := func(p string) string { return filepath.Join(dir, p) }
	dataset, _ := os.ReadFile(in("data/rows.jsonl"))
	os.Symlink("data", in("linked"))
	os.Link(in("data/rows.jsonl"), in("hard.jsonl"))
	os.Symlink("benchy.runtime.yaml", in("rt.json"))
	for _, c := range []struct{ out, want string }{
		{"linked/rows.json", "would overwrite the dataset data/rows.jsonl"},
		{"hard.json", "would overwrite the dataset data/rows.jsonl"},
		{"benchmark.yaml", "would overwrite the benchmark"},
		{"rt.json", "would overwrite the runtime file"},
		{"data/Benchy.Runtime.YAML", "would write a runtime file"},
		{".out/results.json", "a hidden file or folder"},
		{"data", "is a folder"},
	} {
		code, _, stderr := runBenchy(t, "run", "--no-store", "-o", in(c.out), in("benchmark.yaml"))
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("-o %s: exit %d, %s; want 2 and %q", c.out, code, stderr, c.want)
		}
	}
	if got, _ := os.ReadFile(in("data/rows.jsonl")); string(got) != string(dataset) || calls(dir) != 0 {
		t.Fatalf("the dataset changed, or the AI-system was called %d times", calls(dir))
	}

	// An artifact, by a hard link.
	inv := invoiceRun(t)
	os.Link(filepath.Join(inv, "images", "invoice-002.png"), filepath.Join(inv, "out.json"))
	if code, _, stderr := runBenchy(t, "run", "--no-store", "-o", filepath.Join(inv, "out.json"), filepath.Join(inv, "benchmark.yaml")); code != 2 ||
		!strings.Contains(stderr, "would overwrite an artifact of the dataset (line 2, input.image") {
		t.Errorf("-o a hard link to an artifact: exit %d, %s", code, stderr)
	}

	// Results already there, linked elsewhere: replaced by new files, the links' other ends kept.
	os.WriteFile(in("old.json"), []byte("old document"), 0o644)
	os.Link(in("old.json"), in("results.json"))
	os.WriteFile(in("elsewhere.jsonl"), []byte("old stream"), 0o644)
	os.Symlink("elsewhere.jsonl", in("results.jsonl"))
	if code, _, stderr := runBenchy(t, "run", "--no-store", "-o", in("results.json"), in("benchmark.yaml")); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, want := range map[string]string{"old.json": "old document", "elsewhere.jsonl": "old stream"} {
		if got, _ := os.ReadFile(in(name)); string(got) != want {
			t.Errorf("%s was written through a link: %q", name, got)
		}
	}
	if info, err := os.Lstat(in("results.jsonl")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("results.jsonl is not a new regular file: %v", err)
	}
	leftovers, _ := filepath.Glob(in(".*"))
	if len(leftovers) != 0 {
		t.Errorf("files left behind: %v", leftovers)
	}
}

// TestHardeningConcurrentRunsSameOutput: a second `benchy run` with the -o of a run still
// going stops at once, naming the other process, before any AI-system call; the first
// finishes with its own results.
func TestHardeningConcurrentRunsSameOutput(t *testing.T) {
	dir := slowWorkspace(t, 12, 100*time.Millisecond)
	out := filepath.Join(dir, "results.json")
	first := exec.Command("benchy", "run", "--no-store", "--concurrency", "1", "-o", out, filepath.Join(dir, "benchmark.yaml"))
	var firstErr strings.Builder
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); calls(dir) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatalf("the first run did not start: %s", firstErr.String())
		}
	}
	code, _, stderr := runBenchy(t, "run", "--no-store", "-o", out, filepath.Join(dir, "benchmark.yaml"))
	want := fmt.Sprintf(": another benchy run is writing these results (process %d on ", first.Process.Pid)
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("the second run: exit %d, %s; want 1 and %q", code, stderr, want)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the first run: %v\n%s", err, firstErr.String())
	}
	if n := calls(dir); n != 12 {
		t.Errorf("the AI-system was called %d times, want 12 (the first run's only)", n)
	}
	doc, _ := os.ReadFile(out)
	stream, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if strings.Count(string(stream), "\n") != 12 || !strings.Contains(string(doc), `"examples": 12`) && !strings.Contains(string(doc), `"examples":12`) {
		t.Errorf("the first run's results: %d lines in the stream, document %.200s", strings.Count(string(stream), "\n"), doc)
	}
	// Another name for the same files (a linked folder, -o without .json) is the same lock.
	second := exec.Command("benchy", "run", "--no-store", "--concurrency", "1", "-o", out, filepath.Join(dir, "benchmark.yaml"))
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); calls(dir) == 12; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			second.Process.Kill()
			t.Fatal("the second run did not start")
		}
	}
	link := filepath.Join(t.TempDir(), "ws")
	os.Symlink(dir, link)
	for _, other := range []string{filepath.Join(link, "results.json"), filepath.Join(dir, "results")} {
		if code, _, stderr := runBenchy(t, "run", "--no-store", "-o", other, filepath.Join(dir, "benchmark.yaml")); code != 1 || !strings.Contains(stderr, "another benchy run") {
			t.Errorf("-o %s beside a run with -o %s: exit %d, %s", other, out, code, stderr)
		}
	}
	if err := second.Wait(); err != nil || calls(dir) != 24 {
		t.Fatalf("the run with -o %s: %v, %d calls in all", out, err, calls(dir))
	}
	// The lock is gone with the run; the next run takes it.
	if code, _, stderr := runBenchy(t, "run", "--no-store", "--limit", "1", "-o", out, filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Errorf("a run after the first ended: exit %d, %s", code, stderr)
	}
}

// TestHardeningServerStartLeavesLiveRun: a server started in the workspace while a
// `benchy run` (a real process) is recording its run there leaves that run alone: not
// interrupted, not resumable; the CLI finishes it, once, with every example stored once.
func TestHardeningServerStartLeavesLiveRun(t *testing.T) {
	const n = 12
	dir := slowWorkspace(t, n, 150*time.Millisecond)
	cli := exec.Command("benchy", "run", "--concurrency", "1", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	var cliErr strings.Builder
	cli.Stderr = &cliErr
	if err := cli.Start(); err != nil {
		t.Fatal(err)
	}
	defer cli.Process.Kill()
	for deadline := time.Now().Add(10 * time.Second); calls(dir) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the CLI run did not start: %s", cliErr.String())
		}
	}
	srv, err := server.New(server.Config{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
	st, err := store.Open(store.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.MarkInterrupted(); n != 0 || err != nil {
		t.Errorf("MarkInterrupted beside the live CLI run: %d, %v", n, err)
	}
	runs, err := st.ListRuns(store.Filter{}, 10)
	if err != nil || len(runs) != 1 || runs[0].Status != store.Running {
		t.Fatalf("after the server started: %+v, %v; want the CLI's run, running", runs, err)
	}
	id := runs[0].ID
	if err := st.MarkRunning(id, n); !errors.Is(err, store.ErrTransition) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", cli.Process.Pid)) {
		t.Errorf("taking over the live run: %v, want a refusal naming process %d", err, cli.Process.Pid)
	}
	if err := cli.Wait(); err != nil {
		t.Fatalf("the CLI run: %v\n%s", err, cliErr.String())
	}
	run, err := st.GetRun(id)
	done, _ := st.RecordedSet(id)
	if err != nil || run.Status != store.Completed || run.Done != n || done.Len() != n {
		t.Errorf("the CLI's run: %s, done %d, %d stored, %v; want completed with %d\n%s", run.Status, run.Done, done.Len(), err, n, cliErr.String())
	}
	if c := calls(dir); c != n {
		t.Errorf("the AI-system was called %d times, want %d: each example once", c, n)
	}
	if !strings.Contains(cliErr.String(), "results stored in") {
		t.Errorf("the CLI did not store its results:\n%s", cliErr.String())
	}
}
