package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// gutterStateJS describes the gutter for a failure message.
const gutterStateJS = `(() => {
	const g = document.getElementById("yaml-gutter"), y = document.getElementById("yaml");
	if (g === null) return "no #yaml-gutter";
	const marks = [...g.querySelectorAll(".gutter-mark")].map(m => m.dataset.line + " " + JSON.stringify(m.title));
	return "lines " + JSON.stringify(document.getElementById("yaml-lines").textContent.slice(-40)) +
		", marks " + JSON.stringify(marks) + ", scrollTop gutter " + g.scrollTop + " textarea " + y.scrollTop;
})()`

// TestBrowserGutter: the YAML has line numbers 1..N beside it and a marker on the line a
// diagnostic names, whose title gives the code and message; the numbers scroll with the
// text and follow edits; clicking the marker puts the cursor on that line.
func TestBrowserGutter(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)

	// The paper's example with one line made wrong, and long enough to scroll.
	bad := strings.Replace(invoiceYAML(t), "  weights:\n", "  weigths:\n", 1) + strings.Repeat("# padding\n", 40)
	wrong := strings.Count(bad[:strings.Index(bad, "weigths:")], "\n") + 1
	b.setYAML(bad)
	mark := fmt.Sprintf(`document.querySelector('#yaml-gutter .gutter-mark[data-line="%d"]')`, wrong)
	poll[bool](b, fmt.Sprintf("a marker on line %d", wrong), mark+` !== null`, 3*time.Second, gutterStateJS)
	if title := eval[string](b, mark+`.title`); !strings.Contains(title, "unknown_key") || !strings.Contains(title, "weigths") {
		t.Errorf("the marker's title is %q, want the code unknown_key and the message naming weigths", title)
	}
	if n := eval[int](b, `document.querySelectorAll("#yaml-gutter .gutter-mark").length`); n != 1 {
		t.Errorf("%d markers, want 1 (one line is wrong): %s", n, eval[string](b, gutterStateJS))
	}
	wantNumbers := func(text string) string {
		n := strings.Count(text, "\n") + 1
		ns := make([]string, n)
		for i := range ns {
			ns[i] = fmt.Sprint(i + 1)
		}
		return strings.Join(ns, "\n")
	}
	if got, want := eval[string](b, `document.getElementById("yaml-lines").textContent`), wantNumbers(bad); got != want {
		t.Errorf("the gutter's numbers are %q, want 1..%d", got, strings.Count(bad, "\n")+1)
	}
	// Number n stands level with line n: the gutter's numbers and the text share their line
	// height and their first line's top.
	level := eval[string](b, `(() => {
		const y = getComputedStyle(document.getElementById("yaml")), n = document.getElementById("yaml-lines");
		const g = getComputedStyle(n);
		const gutter = document.getElementById("yaml-gutter");
		const top = n.getBoundingClientRect().top - gutter.getBoundingClientRect().top + gutter.scrollTop;
		const ytop = parseFloat(y.paddingTop) + parseFloat(y.borderTopWidth);
		return y.lineHeight === g.lineHeight && Math.abs(top - ytop) < 0.5 ? "" : "line height " + y.lineHeight + " vs " + g.lineHeight + ", first line at " + top + " vs " + ytop;
	})()`)
	if level != "" {
		t.Errorf("the numbers are not level with the text: %s", level)
	}
	b.screenshot("gutter")

	// Scrolling the text scrolls the numbers with it.
	eval[bool](b, `(() => { document.getElementById("yaml").scrollTop = 0; return true; })()`)
	poll[bool](b, "the gutter at the top", `document.getElementById("yaml-gutter").scrollTop === 0`, 3*time.Second, gutterStateJS)
	eval[bool](b, `(() => { document.getElementById("yaml").scrollTop = 300; return true; })()`)
	poll[bool](b, "the gutter to scroll with the text", `(() => {
		const g = document.getElementById("yaml-gutter"), y = document.getElementById("yaml");
		return y.scrollTop > 0 && g.scrollTop === y.scrollTop;
	})()`, 3*time.Second, gutterStateJS)

	// Clicking the marker puts the cursor on its line.
	eval[bool](b, `(() => { document.getElementById("yaml").setSelectionRange(0, 0); `+mark+`.click(); return true; })()`)
	poll[bool](b, fmt.Sprintf("the cursor on line %d", wrong), fmt.Sprintf(`(() => {
		const y = document.getElementById("yaml");
		return document.activeElement === y && y.value.slice(0, y.selectionStart).split("\n").length === %d;
	})()`, wrong), 3*time.Second, `"cursor at " + document.getElementById("yaml").selectionStart`)

	// The numbers follow edits, and the marker goes once the line is right again.
	fixed := strings.Replace(bad, "  weigths:\n", "  weights:\n", 1) + "# one\n# two\n"
	b.setYAML(fixed)
	want := wantNumbers(fixed)
	poll[bool](b, "the numbers to follow the edit and the marker to go", `document.getElementById("yaml-lines").textContent === `+js(want)+
		` && document.querySelectorAll("#yaml-gutter .gutter-mark").length === 0`, 3*time.Second, gutterStateJS)
	// At the bottom, the numbers still stand level with the text.
	eval[bool](b, `(() => { const y = document.getElementById("yaml"); y.scrollTop = y.scrollHeight; return true; })()`)
	poll[bool](b, "the gutter to follow the text to its end", `(() => {
		const g = document.getElementById("yaml-gutter"), y = document.getElementById("yaml");
		return y.scrollTop > 300 && g.scrollTop === y.scrollTop;
	})()`, 3*time.Second, gutterStateJS)
	b.screenshot("gutter-bottom")
}
