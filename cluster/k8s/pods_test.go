package k8s_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestShardsAsPods runs the manifests' commands as the pods would, but as local processes
// of the real binary: the volume is a folder, every container's working directory; pod K
// of the Indexed Job has JOB_COMPLETION_INDEX=K and nothing else says which shard it is;
// the shards run at once; then the merge Job's wait and merge commands. The merged document
// is the single-machine run's but for the fields a merge documents as its own, for N = 1,
// 3 and 13 (more shards than the 11 examples: two complete empty).
func TestShardsAsPods(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchy")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "benchy"), "github.com/benchy-eval/benchy/cmd/benchy")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH")) // the image's PATH has benchy

	volume := t.TempDir()
	writeEcho(t, filepath.Join(volume, "bench"))
	single := runIn(t, volume, nil, "benchy", "run", "--runtime", "bench/benchy.runtime.yaml", "--no-store", "-o", "single.json", "bench/echo.yaml")
	if single.code != 0 {
		t.Fatalf("single run: exit %d\n%s", single.code, single.stderr)
	}
	for _, n := range []int{1, 3, 13} {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			name := fmt.Sprintf("echo-%d", n)
			printed := runIn(t, volume, nil, "benchy", "k8s", "job", "--shards", strconv.Itoa(n), "--image", "benchy:test",
				"--volume-claim", "work", "--name", name, "--runtime", "bench/benchy.runtime.yaml", "bench/echo.yaml")
			if printed.code != 0 {
				t.Fatalf("k8s job: exit %d\n%s", printed.code, printed.stderr)
			}
			jobs := decode(t, []byte(printed.stdout))
			shardPod, mergePod := jobs[0].Spec.Template.Spec, jobs[1].Spec.Template.Spec
			if *jobs[0].Spec.Completions != int32(n) {
				t.Fatalf("completions %d, want %d", *jobs[0].Spec.Completions, n)
			}
			// The container's working directory is the mount: here, the volume's folder.
			dir := func(workingDir string) string {
				if workingDir != "/work" {
					t.Fatalf("workingDir %q, want the mount /work", workingDir)
				}
				return volume
			}

			wait := mergePod.InitContainers[0]
			early := runIn(t, dir(wait.WorkingDir), nil, append(wait.Command, "--timeout", "200ms", "--poll", "50ms")...)
			if early.code != 1 || !strings.Contains(early.stderr, "0 of "+strconv.Itoa(n)+" shards complete; waiting for 0/"+strconv.Itoa(n)+" missing") {
				t.Errorf("wait before any shard ran: exit %d\n%s", early.code, early.stderr)
			}

			c := shardPod.Containers[0]
			var wg sync.WaitGroup
			pods := make([]result, n)
			for k := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					pods[k] = runIn(t, dir(c.WorkingDir), []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(k)}, c.Command...)
				}()
			}
			wg.Wait()
			for k, p := range pods {
				if p.code != 0 {
					t.Fatalf("pod %d: exit %d\n%s", k, p.code, p.stderr)
				}
				if _, err := os.Stat(filepath.Join(volume, "shards", name, fmt.Sprintf("shard-%d-of-%d", k, n), "manifest.json")); err != nil {
					t.Errorf("pod %d: %v", k, err)
				}
			}

			if w := runIn(t, dir(wait.WorkingDir), nil, wait.Command...); w.code != 0 || !strings.Contains(w.stderr, "all "+strconv.Itoa(n)+" shards complete") {
				t.Fatalf("wait: exit %d\n%s", w.code, w.stderr)
			}
			m := mergePod.Containers[0]
			if merged := runIn(t, dir(m.WorkingDir), nil, m.Command...); merged.code != 0 {
				t.Fatalf("merge: exit %d\n%s", merged.code, merged.stderr)
			}
			got := withoutMergeFields(t, filepath.Join(volume, "shards", name, "results.json"))
			if want := withoutMergeFields(t, filepath.Join(volume, "single.json")); !bytes.Equal(got, want) {
				t.Errorf("merged document:\n%s\nthe single run's:\n%s", got, want)
			}
		})
	}
}

type result struct {
	code           int
	stdout, stderr string
}

// runIn runs a command in dir with env added to the test's, as a container runs its
// command, killed after a minute: a wait for a shard that never completes is a failure,
// not a hang.
func runIn(t *testing.T, dir string, env []string, cmd ...string) result {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	c.Dir, c.Env, c.WaitDelay = dir, append(os.Environ(), env...), 5*time.Second
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := c.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Errorf("%q: %v", cmd, err)
	}
	return result{code, out.String(), errb.String()}
}

// withoutMergeFields is a result document less the fields benchy merge documents as its
// own (started_at, finished_at, concurrency, shards) and the run's id.
func withoutMergeFields(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"started_at", "finished_at", "concurrency", "shards", "run_id"} {
		delete(doc, k)
	}
	out, _ := json.Marshal(doc) // keys sorted, values as written
	return out
}

// writeEcho writes a benchmark of 11 examples whose command adapter answers with its input,
// which is the expected label for 7 of them.
func writeEcho(t *testing.T, dir string) {
	t.Helper()
	var rows strings.Builder
	for i := range 11 {
		got, want := "x", "x"
		if i%3 == 1 {
			want = "y"
		}
		if i == 9 {
			got = "y"
		}
		fmt.Fprintf(&rows, "{\"input\": {\"label\": %q}, \"expected\": {\"label\": %q}}\n", got, want)
	}
	files := map[string]string{
		"rows.jsonl":          rows.String(),
		"benchy.runtime.yaml": "bindings:\n  echo:\n    command: [sed, -u, 's/\"input\"/\"output\"/']\n",
		"echo.yaml": `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input:
    label: string
  output:
    label: {enum: [x, y]}
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./rows.jsonl
ai-system: {type: external, id: echo}
`,
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
