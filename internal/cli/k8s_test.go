package cli_test

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/cli"
)

// TestK8sJobFlags: benchy k8s job refuses, with exit 2 and a line naming the flag, what
// Kubernetes would refuse or what would run nowhere, each problem at once; a good line
// prints both Jobs.
func TestK8sJobFlags(t *testing.T) {
	good := []string{"k8s", "job", "--shards", "3", "--image", "benchy:1", "--volume-claim", "work", "bench/ocr.yaml"}
	tests := []struct {
		name string
		args []string
		want []string // lines of stderr; none: exit 0
	}{
		{"good", good, nil},
		{"zero shards", k8sArgs(good, "--shards", "0"), []string{"--shards 0: needs 1 or more"}},
		{"negative shards", k8sArgs(good, "--shards", "-2"), []string{"--shards -2: needs 1 or more"}},
		{"more shards than an Indexed Job takes", k8sArgs(good, "--shards", "100001"), []string{"--shards 100001: at most 100000"}},
		{"shards not a number", k8sArgs(good, "--shards", "four"), []string{`invalid value "four" for flag -shards`}},
		{"no image", []string{"k8s", "job", "--shards", "3", "--volume-claim", "work", "b.yaml"}, []string{"--image: needed"}},
		{"no claim, no image", []string{"k8s", "job", "--shards", "3", "b.yaml"}, []string{"--image: needed", "--volume-claim: needed"}},
		{"name with capitals", k8sArgs(good, "--name", "OCR"), []string{`--name "OCR": not a DNS-1123 label`}},
		{"name with a dot", k8sArgs(good, "--name", "ocr.v2"), []string{`--name "ocr.v2": not a DNS-1123 label`}},
		{"name ending in -", k8sArgs(good, "--name", "ocr-"), []string{`--name "ocr-": not a DNS-1123 label`}},
		{"name too long for -merge", k8sArgs(good, "--name", strings.Repeat("a", 58)), []string{`longer than 57 characters`}},
		{"namespace with _", k8sArgs(good, "--namespace", "my_ns"), []string{`--namespace "my_ns": not a DNS-1123 label`}},
		{"claim with capitals", k8sArgs(good, "--volume-claim", "Work"), []string{`--volume-claim "Work": not a DNS-1123 subdomain`}},
		{"negative retries", k8sArgs(good, "--backoff-limit-per-index", "-1"), []string{"--backoff-limit-per-index -1: needs 0 or more"}},
		{"relative mount", k8sArgs(good, "--mount", "work"), []string{`--mount "work": not an absolute path`}},
		{"out-dir outside the mount", k8sArgs(good, "--out-dir", "/tmp/out"), []string{`--out-dir "/tmp/out": not under the mount /work`}},
		{"benchmark above the volume", append(good[:len(good)-1:len(good)-1], "../b.yaml"), []string{`the benchmark "../b.yaml": not inside the volume`}},
		{"no benchmark", good[:len(good)-1], []string{"expects exactly one BENCHMARK"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", tt.args...)
			if tt.want == nil {
				if code != cli.ExitOK || strings.Count(stdout, "kind: \"Job\"") != 2 || stderr != "" {
					t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
				}
				return
			}
			if code != cli.ExitUsage || stdout != "" {
				t.Errorf("exit %d, want %d; stdout %q", code, cli.ExitUsage, stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// k8sArgs is args with flag set to value, placed before the positional argument.
func k8sArgs(args []string, flag, value string) []string {
	out := append([]string{}, args[:len(args)-1]...)
	return append(out, flag, value, args[len(args)-1])
}

// TestK8sWaitSummary: benchy k8s wait names a long list of pending shards as runs (of 10^5
// shards it printed one line of 10^5), a short one shard by shard.
func TestK8sWaitSummary(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ n, want string }{{"25", "waiting for shards 0–24 of 25 missing\n"}, {"2", "waiting for 0/2 missing, 1/2 missing\n"}} {
		code, _, stderr := run(t, "", "k8s", "wait", "--shards", c.n, "--timeout", "50ms", dir)
		if code != cli.ExitFail || !strings.Contains(stderr, c.want) {
			t.Errorf("--shards %s: exit %d\n%s", c.n, code, stderr)
		}
	}
}
