package web_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPerf14Keystroke measures issue 14's keystroke-to-diagnostics time on the paper's
// example: 40 real key events into the YAML, alternately an "x" after "task: extract" (an
// unknown_task diagnostic appears) and a Backspace (it goes, the text is valid again). The
// page's own clock times each one, from the keydown event's timestamp to the mutation that
// puts the new diagnostics on the page, and to the animation frame after it (when the browser
// paints it), so the test's polling adds nothing. It logs the median and p95 (targets 50 and
// 100 ms) and fails only when the diagnostics do not follow the keys.
func TestBrowserPerf14Keystroke(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 120*time.Second)
	editor(t, b, srv)
	good := invoiceYAML(t)
	b.setYAML(good)
	hash := b.waitValid(cliHash(t, good))

	caret := strings.Index(good, "task: extract") + len("task: extract")
	eval[bool](b, `(() => {
		const k = window.benchyPerf = {down: 0, state: "", changed: 0, painted: 0};
		const y = document.getElementById("yaml");
		y.addEventListener("keydown", ev => { k.down = ev.timeStamp; k.changed = 0; k.painted = 0; }, {capture: true});
		const state = () => {
			const lis = [...document.querySelectorAll("#diagnostics li.diag")];
			return lis.length ? lis.map(li => li.dataset.code).join(",") : "none";
		};
		k.state = state();
		new MutationObserver(() => {
			const s = state();
			if (s === k.state) return;
			k.state = s;
			if (k.down === 0 || k.changed !== 0) return;
			k.changed = performance.now();
			requestAnimationFrame(() => { k.painted = performance.now(); });
		}).observe(document.getElementById("diagnostics"), {subtree: true, childList: true, characterData: true, attributes: true});
		return true;
	})()`)

	const keystrokes = 40
	var shown, painted []float64
	for i := range keystrokes {
		key, want := "x", "unknown_task"
		if i%2 == 1 {
			key, want = kb.Backspace, "none"
		} else {
			eval[bool](b, fmt.Sprintf(`(() => { const y = document.getElementById("yaml"); y.focus(); y.setSelectionRange(%d, %d); return true; })()`, caret, caret))
		}
		eval[bool](b, `(() => { window.benchyPerf.down = 0; return true; })()`)
		b.run(chromedp.SendKeys(chromedp.ID("yaml"), key))
		d := poll[[]float64](b, fmt.Sprintf("keystroke %d to show diagnostics %q", i+1, want), `(() => {
			const k = window.benchyPerf;
			return k.down > 0 && k.painted > 0 && k.state === `+js(want)+` && [k.changed - k.down, k.painted - k.down];
		})()`, 5*time.Second, editorStateJS)
		shown = append(shown, d[0])
		painted = append(painted, d[1])
	}
	b.waitValid(hash)
	t.Logf("keystroke to diagnostics on the paper's example (%d keystrokes, page clock): on the page median %.1f ms, p95 %.1f ms, max %.1f ms; painted (next frame) median %.1f ms, p95 %.1f ms; targets 50 / 100 ms",
		keystrokes, percentile(shown, 50), percentile(shown, 95), percentile(shown, 100), percentile(painted, 50), percentile(painted, 95))
}

// percentile is the nearest-rank p-th percentile of xs (p in 0..100).
func percentile(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}
