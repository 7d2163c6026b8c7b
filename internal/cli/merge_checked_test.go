package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mergeRefused merges the shards under out into the store of dir and fails the test unless
// the merge is refused naming each of want, with nothing stored and no document written.
func mergeRefused(t *testing.T, dir, bench, out string, want ...string) {
	t.Helper()
	merged := filepath.Join(dir, "merged.json")
	code, _, stderr := runBenchy(t, "merge", "-o", merged, "--benchmark", bench, "--into-store", dir, out)
	if code != 1 {
		t.Fatalf("merge: exit %d, want 1\n%s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("merge refused without naming %q:\n%s", w, stderr)
		}
	}
	if runs := mergedRuns(t, dir); len(runs) != 0 {
		t.Errorf("the refused merge stored %d runs", len(runs))
	}
	if _, err := os.Stat(merged); !os.IsNotExist(err) {
		t.Errorf("the refused merge wrote %s (%v)", merged, err)
	}
}

// withUsage gives a journal line the usage u, as the engine writes it last.
func withUsage(u string) func(string) string {
	return func(l string) string { return strings.TrimSuffix(l, "}\n") + `,"usage":` + u + "}\n" }
}

// TestMergeRefusesForgedUsage: a line whose usage no model call can have had (a negative
// cost or token count, a negative latency, a cost for no tokens, counts on a reply that
// reported none, a cached flag that is no boolean), or manifests whose times cannot be
// (in the future, a finish before the start, no time at all), refuses benchy merge
// --into-store, naming the shard; nothing is stored, so no leaderboard shows a cost of
// $-500.
func TestMergeRefusesForgedUsage(t *testing.T) {
	lines := []struct {
		name, usage, want string
	}{
		{"negative cost", `{"input_tokens":10,"output_tokens":2,"latency_ms":1.5,"cost_usd":-50}`, "cost"},
		{"negative tokens", `{"input_tokens":-1000000,"output_tokens":0,"latency_ms":0.001}`, "tokens"},
		{"negative latency", `{"input_tokens":10,"output_tokens":2,"latency_ms":-3}`, "latency"},
		{"cost of no tokens", `{"input_tokens":0,"output_tokens":0,"latency_ms":1,"cost_usd":5}`, "cost"},
		{"unreported with counts", `{"input_tokens":10,"output_tokens":2,"latency_ms":1,"unreported":true}`, "unreported"},
		{"cached not a flag", `{"input_tokens":10,"output_tokens":2,"latency_ms":1,"cached":"yes"}`, "line 1"},
	}
	for _, c := range lines {
		t.Run(c.name, func(t *testing.T) {
			dir := invoiceRun(t)
			bench, out := invoiceShards(t, dir, "2", "0", "1")
			editLine(t, out, 1, 2, 1, withUsage(c.usage))
			mergeRefused(t, dir, bench, out, "shard 1/2", "line 1", c.want)
		})
	}
	manifests := []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"in the future", func(m map[string]any) {
			m["started_at"], m["finished_at"] = "2999-01-01T00:00:00Z", "2999-01-01T00:00:01Z"
		}, "future"},
		{"finished before started", func(m map[string]any) {
			m["started_at"], m["finished_at"] = "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"
		}, "before"},
		{"no time", func(m map[string]any) { m["finished_at"] = "yesterday" }, "yesterday"},
		{"examples not the shard's", func(m map[string]any) { m["examples"] = 500 }, "examples"},
	}
	for _, c := range manifests {
		t.Run("manifest "+c.name, func(t *testing.T) {
			dir := invoiceRun(t)
			bench, out := invoiceShards(t, dir, "2", "0", "1")
			editManifests(t, out, c.edit)
			mergeRefused(t, dir, bench, out, "manifest", c.want, "rm "+filepath.Join(out, "shard-0-of-2", "manifest.json"))
		})
	}
}

// TestMergeRefusesFalseInvalidOutput: a right answer relabelled invalid_output (its field
// scores and score dropped, an error a check of it would give) refuses benchy merge: its
// prediction is a valid output of the program, so the claim is false, as a valid line
// whose prediction is no valid output is refused.
func TestMergeRefusesFalseInvalidOutput(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "2", "0", "1")
	editLine(t, out, 1, 2, 1, func(l string) string {
		i := strings.Index(l, `"field_scores":`)
		return strings.Replace(l[:i], `"status":"valid"`, `"status":"invalid_output"`, 1) +
			`"field_scores":null,"score":null,"contribution":0,"error":{"code":"invalid_value","path":["date"],"message":"date is not a valid date: want YYYY-MM-DD"}}` + "\n"
	})
	mergeRefused(t, dir, bench, out, "shard 1/2", "line 1", "valid output")
}

// TestMergeRefusesUnregisteredErrorCode: an execution error whose code the registry does
// not know, or whose message is longer than any adapter writes (5 MB), or an execution
// error that carries a prediction, refuses benchy merge.
func TestMergeRefusesUnregisteredErrorCode(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(string) string
		want string
	}{
		{"made-up code", func(l string) string { return strings.Replace(l, `"code":"adapter_error"`, `"code":"made_up_code"`, 1) }, "made_up_code"},
		{"5 MB message", func(l string) string {
			return strings.Replace(l, `"the scan is unreadable"`, `"`+strings.Repeat("x", 5<<20)+`"`, 1)
		}, "message"},
		{"prediction", func(l string) string {
			return strings.Replace(l, `"prediction":null`, `"prediction":{"total":1}`, 1)
		}, "prediction"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := invoiceRun(t)
			bench, out := invoiceShards(t, dir, "2", "0", "1")
			editLine(t, out, 1, 2, 7, c.edit) // example 7: the scan is unreadable (adapter_error)
			mergeRefused(t, dir, bench, out, "shard 1/2", "line 4", c.want)
		})
	}
}

// TestMergeRecordsOtherLinesOfSameShards: shards merged into the store with a line edited
// (an execution error's message, which no check can tell from the AI-system's own) and
// then merged again as they were written, their manifests unchanged, are recorded as a
// second run, with a warning naming the first; only the same lines merged again are
// "already recorded", as that second run.
func TestMergeRecordsOtherLinesOfSameShards(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "2", "0", "1")
	journal := filepath.Join(out, "shard-1-of-2", "results.jsonl")
	genuine, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	merge := func() (int, string) {
		code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, "--into-store", dir, out)
		return code, stderr
	}
	editLine(t, out, 1, 2, 7, func(l string) string { return strings.Replace(l, "the scan is unreadable", "the scan is fine", 1) })
	if code, stderr := merge(); code != 0 {
		t.Fatalf("the edited merge: exit %d\n%s", code, stderr)
	}
	runs := mergedRuns(t, dir)
	if len(runs) != 1 {
		t.Fatalf("%d runs after the first merge", len(runs))
	}
	first := runs[0].ID
	if err := os.WriteFile(journal, genuine, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := merge()
	if code != 0 || strings.Contains(stderr, "already recorded") || !strings.Contains(stderr, first) || !strings.Contains(stderr, "other lines") {
		t.Fatalf("the genuine merge: exit %d, want 0, recorded as a new run with a warning naming %s\n%s", code, first, stderr)
	}
	runs = mergedRuns(t, dir)
	if len(runs) != 2 {
		t.Fatalf("%d runs after the genuine merge, want 2", len(runs))
	}
	second := runs[0].ID
	if second == first {
		second = runs[1].ID
	}
	code, stderr = merge()
	if code != 0 || !strings.Contains(stderr, "already recorded as run "+second) {
		t.Fatalf("the genuine merge again: exit %d, want it already recorded as run %s\n%s", code, second, stderr)
	}
	if runs := mergedRuns(t, dir); len(runs) != 2 {
		t.Errorf("%d runs after merging the genuine shards again, want 2", len(runs))
	}
}
