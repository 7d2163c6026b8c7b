package web_test

// A browser test of the runs page's model options (issue 16): the start form offers the
// response cache's mode and a budget when the runtime file defines a provider, and a run
// started with them replays from the cache, or stops at its budget, as benchy run's
// --cache and --max-cost do.

import (
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
)

// TestBrowserModelOptions16: a person starts qa.yaml with Cache "use" (3 requests), again
// (none: all from the cache, the run's options saying use), then with Cache "off" and a
// max cost no request fits in: the run ends cancelled at its budget, nothing sent.
func TestBrowserModelOptions16(t *testing.T) {
	requireBrowser(t)
	url, asked := chatStub(t)
	dir := costWorkspace(t, url, 50)
	srv := startServer(t, dir)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/runs?benchmark=qa.yaml"))
	panel := `(document.getElementById("live") || {innerText: ""}).innerText`
	poll[bool](b, "the cache choice", `document.querySelector('#cache option[value="use"]') !== null`, 10*time.Second, "")
	set := func(sel, value, event string) {
		t.Helper()
		eval[bool](b, `(() => { const e = document.querySelector(`+"`"+sel+"`"+`); e.value = `+"`"+value+"`"+`; e.dispatchEvent(new Event("`+event+`", {bubbles: true})); return true; })()`)
	}
	start := func(want string) string {
		t.Helper()
		before := eval[string](b, `(document.getElementById("live") || {dataset: {}}).dataset.id || ""`)
		b.clickJS("#start")
		poll[bool](b, "the new run", `(() => { const e = document.getElementById("live"); return e !== null && e.dataset.id !== "`+before+`" && e.dataset.id !== undefined; })()`, 20*time.Second, panel)
		got := poll[string](b, "the run to end", `(() => { const e = document.getElementById("run-status"); return e && /completed|cancelled|aborted/.test(e.textContent) && e.textContent; })()`, 30*time.Second, panel)
		if !strings.Contains(got, want) {
			t.Errorf("the run ended %q, want %q\n%s", got, want, eval[string](b, panel))
		}
		return eval[string](b, `document.getElementById("live").dataset.id`)
	}
	set("#cache", "use", "change")
	start("completed")
	if n := asked.Load(); n != 3 {
		t.Errorf("the first run asked %d times, want 3", n)
	}
	id := start("completed")
	var run api.Run
	srv.getJSON(t, "/api/runs/"+id, &run)
	if n := asked.Load(); n != 3 || run.Options.Cache != "use" {
		t.Errorf("the second run: %d asked in all, options %+v; want 3 and cache use", n, run.Options)
	}
	set("#cache", "off", "change")
	set("#start-max-cost", "0.000001", "input")
	b.screenshot("runs-model-options")
	id = start("budget")
	srv.getJSON(t, "/api/runs/"+id, &run)
	if n := asked.Load(); n != 3 || run.Status != api.Cancelled || run.Reason != "budget" || run.Options.MaxCost != 0.000001 {
		t.Errorf("the budget run: %d asked, status %s reason %q, options %+v", n, run.Status, run.Reason, run.Options)
	}
	b.screenshot("runs-model-budget")
}
