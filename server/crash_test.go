package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/store"
)

// TestCrashAndResume starts the real benchy binary, launches a run against a slow command
// adapter, kills the server with SIGKILL mid-run, starts it again and resumes: the run shows
// as interrupted with every reported example kept, the resumed run asks the AI-system only
// for the missing examples, and its results equal a clean run's byte for byte.
func TestCrashAndResume(t *testing.T) {
	bin := benchyBinary(t)
	dir := runWorkspace(t, slow{gate: true, from: 5})

	base, proc := startBenchy(t, bin, dir)
	id := postJSON(t, base, "/api/runs", `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`, http.StatusAccepted)["id"].(string)
	waitFor(t, "5 results stored", func() bool { return runField(t, base, id, "done") >= 5 })
	proc.Process.Signal(syscall.SIGKILL)
	proc.Wait()

	base, _ = startBenchy(t, bin, dir)
	var run map[string]any
	getJSON(t, base, "/api/runs/"+id, &run)
	if run["status"] != string(store.Interrupted) || run["done"].(float64) != 5 {
		t.Fatalf("after the crash: %s with %v done, want interrupted with 5", run["status"], run["done"])
	}
	os.WriteFile(filepath.Join(dir, "gate"), nil, 0o644)
	os.Remove(filepath.Join(dir, "calls.log"))
	postJSON(t, base, "/api/runs/"+id+"/resume", `{}`, http.StatusAccepted)
	waitFor(t, "the resumed run completed", func() bool { getJSON(t, base, "/api/runs/"+id, &run); return run["status"] == string(store.Completed) })
	calls, _ := os.ReadFile(filepath.Join(dir, "calls.log"))
	if got := strings.Fields(string(calls)); strings.Join(got, ",") != "5,6,7,8,9,10,11" {
		t.Errorf("the resumed run asked for %v, want only 5-11", got)
	}

	clean := postJSON(t, base, "/api/runs", `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`, http.StatusAccepted)["id"].(string)
	waitFor(t, "the clean run completed", func() bool {
		getJSON(t, base, "/api/runs/"+clean, &run)
		return run["status"] == string(store.Completed)
	})
	resumed, fresh := exportJSONL(t, base, id), exportJSONL(t, base, clean)
	if len(resumed) == 0 || !bytes.Equal(resumed, fresh) {
		t.Errorf("resumed results differ from a clean run's:\n%s\n---\n%s", resumed, fresh)
	}
}

// startBenchy runs `benchy serve` on a free loopback port and returns its base URL.
func startBenchy(t *testing.T, bin, dir string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--workspace", dir, "--addr", "127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if _, url, ok := strings.Cut(lines.Text(), " on http://"); ok {
			go io.Copy(io.Discard, stderr)
			return "http://" + url, cmd
		}
	}
	t.Fatal("benchy serve did not say where it listens")
	return "", nil
}

func postJSON(t *testing.T, base, path, body string, want int) map[string]any {
	t.Helper()
	resp, err := http.Post(base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	data, _ := io.ReadAll(resp.Body)
	json.Unmarshal(data, &v)
	if resp.StatusCode != want {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, data)
	}
	return v
}

func getJSON(t *testing.T, base, path string, v any) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func runField(t *testing.T, base, id, field string) float64 {
	var run map[string]any
	getJSON(t, base, "/api/runs/"+id, &run)
	f, _ := run[field].(float64)
	return f
}

func exportJSONL(t *testing.T, base, id string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/api/runs/" + id + "/results?format=jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return data
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}
