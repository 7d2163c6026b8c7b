package web_test

import (
	"fmt"
	"testing"
	"time"
)

// serverStatusJS describes the shell's connection indicator for a failure message.
const serverStatusJS = `(() => {
	const s = document.getElementById("server-status");
	return s === null ? "no #server-status" : "#server-status: " + JSON.stringify(s.className + " " + s.textContent);
})()`

// TestBrowserShell14Connection guards the stale indicator of issue 14: it said "server
// connected" from the first ping on, whatever happened after. It must follow the server
// within 5 s: unreachable once the server stops, connected again once it is back.
func TestBrowserShell14Connection(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, invoiceWorkspace(t, t.TempDir(), false))
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	connected := `(() => {
		const s = document.getElementById("server-status");
		return s !== null && !s.classList.contains("offline") && s.textContent === "server connected";
	})()`
	poll[bool](b, "the indicator to say connected", connected, 5*time.Second, serverStatusJS)

	b.ignoreConsole("net::ERR_CONNECTION_REFUSED") // before the stop: the probe may fail at once
	b.ignoreConsole("net::ERR_FAILED " + srv.URL("/api/"))
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	poll[bool](b, "the indicator to say unreachable within 5 s of the server stopping", `(() => {
		const s = document.getElementById("server-status");
		return s !== null && s.classList.contains("offline") && s.textContent.startsWith("server unreachable");
	})()`, 5*time.Second, serverStatusJS)
	t.Logf("unreachable shown %.0f ms after the server stopped", ms(time.Since(stopped)))

	if err := srv.start(); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	poll[bool](b, "the indicator to say connected within 5 s of the server being back", connected, 5*time.Second, serverStatusJS)
	t.Logf("connected shown %.0f ms after the server was back", ms(time.Since(started)))
}

// TestBrowserShell14StickyPanes guards the panes that scrolled away: with a form taller
// than the window, scrolled to its bottom, the YAML text is still wholly in view.
func TestBrowserShell14StickyPanes(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	b.setYAML(invoiceYAML(t))
	b.waitValid("")
	// Output fields until the page is more than twice the window's height.
	for i := 0; eval[bool](b, `document.scrollingElement.scrollHeight < 2.5 * innerHeight`); i++ {
		if i == 40 {
			t.Fatalf("40 output fields added and the page is still %d px high", eval[int](b, `document.scrollingElement.scrollHeight`))
		}
		n := b.count("#output-fields > li")
		eval[bool](b, `(document.getElementById("add-output").click(), true)`)
		poll[bool](b, "another output field", fmt.Sprintf(`document.querySelectorAll("#output-fields > li").length > %d`, n), 3*time.Second, editorStateJS)
	}
	// The pane is wholly in the window and the text's first lines are: the text itself may
	// be taller than the window, then it scrolls inside the pane.
	inView := `(() => {
		const y = document.getElementById("yaml"), r = y.getBoundingClientRect(), p = y.closest("section").getBoundingClientRect();
		return p.top >= 0 && p.bottom <= innerHeight && r.top >= 0 && r.top < innerHeight - 200 && r.height > 100;
	})()`
	rect := `(() => {
		const r = document.getElementById("yaml").getBoundingClientRect();
		const p = document.getElementById("yaml").closest("section").getBoundingClientRect();
		return "YAML pane top " + Math.round(p.top) + ", bottom " + Math.round(p.bottom) + "; #yaml top " + Math.round(r.top) + ", bottom " + Math.round(r.bottom) + ", window " + innerHeight +
			", scrolled " + Math.round(scrollY) + " of " + document.scrollingElement.scrollHeight;
	})()`
	eval[bool](b, `(scrollTo(0, document.scrollingElement.scrollHeight), true)`)
	poll[bool](b, "the YAML pane to stay in view at the bottom of the form", `scrollY > innerHeight && `+inView, 3*time.Second, rect)
	t.Log(eval[string](b, rect))
	b.screenshot("editor-sticky")
}
