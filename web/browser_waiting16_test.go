package web_test

// Browser tests of a model run's waits and budget on the runs page (issue 16): a run sent
// through the provider's batch API says, while its batch is held in progress, that it waits
// for it, how far it is and its id; a run its budget stopped offers to resume with a larger
// one, and resumed so it completes. The runs are real: `benchy serve` calls stubs of the
// providers' documented endpoints (batchstub, httptest).

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/api"
)

const namesBenchmark = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: finance, language: en}
program:
  input: {text: string}
  output: {name: string}
scoring:
  weights: {name: 1}
  aggregator: weighted_mean
data: {path: data.jsonl}
ai-system: {type: model, provider: local, model: m, prompt: prompt.md}
`

// TestBrowserWaiting16Batch: the runs page of a batch run whose batch the stub holds says
// "Waiting for 1 batch at local: in_progress, 0 of 3 done" with the batch's id, and its row
// in the table says it waits; released, the run completes and the line goes.
func TestBrowserWaiting16Batch(t *testing.T) {
	requireBrowser(t)
	stub := batchstub.New(false)
	stub.Hold = true
	defer stub.Close()
	dir := t.TempDir()
	var rows strings.Builder
	for i := range 3 {
		fmt.Fprintf(&rows, `{"input": {"text": "review %d"}, "expected": {"name": "text: review %d"}}`+"\n", i, i)
	}
	for name, text := range map[string]string{
		"names.yaml":          namesBenchmark,
		"prompt.md":           "Give the name.\n",
		"data.jsonl":          rows.String(),
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: '" + stub.URL + "/v1'\n    batch: true\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := startServer(t, dir)
	var started api.Started
	srv.postJSON(t, "/api/runs", `{"benchmark": "names.yaml"}`, &started)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/runs?benchmark=names.yaml&run=" + started.ID))
	panel := `(document.getElementById("live") || {innerText: ""}).innerText`
	line := `(document.getElementById("run-waiting-text") || {textContent: ""}).textContent`
	got := poll[string](b, "the waiting line", `(() => { const s = `+line+`; return s.includes("in_progress") && s; })()`, 20*time.Second, panel)
	if !strings.HasPrefix(got, "Waiting for 1 batch at local: in_progress, 0 of 3 done (since ") {
		t.Errorf("the waiting line %q", got)
	}
	var run api.Run
	srv.getJSON(t, "/api/runs/"+started.ID, &run)
	if len(run.Batches) != 1 {
		t.Fatalf("the run's batches %+v", run.Batches)
	}
	if ids := eval[string](b, `[...document.querySelectorAll("#run-batches .run-batch")].map(e => e.dataset.id).join(",")`); ids != run.Batches[0].ID {
		t.Errorf("the batches listed %q, want %q", ids, run.Batches[0].ID)
	}
	if status := eval[string](b, `document.getElementById("run-status").textContent`); status != "running" {
		t.Errorf("status badge %q while waiting, want running", status)
	}
	poll[bool](b, "the row's waiting note", `(() => { const e = document.querySelector("#runs tr.run .run-waiting"); return e !== null && e.textContent === "waiting: batches"; })()`, 10*time.Second, panel)
	b.screenshot("runs-waiting-batch")

	stub.Release()
	poll[bool](b, "the run to complete", `document.getElementById("run-status").textContent === "completed"`, 30*time.Second, panel)
	if b.exists("#run-waiting:not([hidden])") {
		t.Error("a completed run still says it waits")
	}
}

// TestBrowserBudget16Resume: a run its budget ($0.045: one example of three at $0.004, the
// next could pass it) stopped shows "budget reached" and a max cost field at twice its
// budget; resumed with it, the run completes without asking the stub again for the first.
func TestBrowserBudget16Resume(t *testing.T) {
	requireBrowser(t)
	url, asked := chatStub(t)
	// A budget needs each reply bounded: max_tokens 4096, the bound the $0.045 is worked from.
	dir := costWorkspace(t, url, 4096)
	srv := startServer(t, dir)
	var started api.Started
	srv.postJSON(t, "/api/runs", `{"benchmark": "qa.yaml", "concurrency": 1, "max_cost": 0.045}`, &started)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/runs?benchmark=qa.yaml&run=" + started.ID))
	panel := `(document.getElementById("live") || {innerText: ""}).innerText`
	poll[bool](b, "the budget's form", `document.getElementById("max-cost") !== null`, 20*time.Second, panel)
	if v := eval[string](b, `document.getElementById("max-cost").value`); v != "0.09" {
		t.Errorf("the max cost offered %q, want 0.09 (twice the budget)", v)
	}
	if !strings.Contains(eval[string](b, panel), "budget reached") {
		t.Errorf("the panel says %q", eval[string](b, panel))
	}
	b.screenshot("runs-budget-resume")
	if n := asked.Load(); n != 1 {
		t.Fatalf("the stub was asked %d times before the resume, want 1", n)
	}
	b.clickJS("#resume-budget")
	poll[bool](b, "the resumed run to complete", `document.getElementById("run-status").textContent === "completed"`, 30*time.Second, panel)
	if n := asked.Load(); n != 3 {
		t.Errorf("the stub was asked %d times in all, want 3", n)
	}
	var run api.Run
	srv.getJSON(t, "/api/runs/"+started.ID, &run)
	if run.Options.MaxCost != 0.09 || run.Done != 3 {
		t.Errorf("the resumed run: options %+v, %d done", run.Options, run.Done)
	}
}
