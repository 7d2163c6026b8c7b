package web_test

import (
	"strings"
	"testing"
	"time"
)

// TestBrowserForm14UnknownKey guards the loss issue 14 opens with: typing a weight into the
// form while the YAML misspells weights (weigths:) rewrote the YAML with default weights
// (total: 5 became total: 1), dropped the misspelt section and showed "valid". Now the
// weights are locked while scoring holds the unknown key: the text keeps every value, the
// diagnostic stays, and a form edit elsewhere (the domain) changes only the domain.
func TestBrowserForm14UnknownKey(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	misspelt := strings.Replace(invoiceYAML(t), "  weights:\n", "  weigths:\n", 1)
	b.setYAML(misspelt)
	poll[bool](b, "the unknown key to be reported", `document.body.innerText.includes("unknown_key")`, 3*time.Second, editorStateJS)
	// The form says which part it leaves alone, and why.
	poll[bool](b, "the locked weights to be explained", `(() => {
		const l = document.getElementById("form-locked");
		return l !== null && l.textContent.includes("scoring.weights") && l.textContent.includes("weigths");
	})()`, 3*time.Second, editorStateJS)

	// The form writes canonical YAML (the unknown key sorted after the known ones), with
	// every value kept.
	keeps := func(what string) string {
		t.Helper()
		got := eval[string](b, `document.getElementById("yaml").value`)
		for _, s := range []string{"  weigths:\n", "    total: 5\n", "    subtotal: 1\n", "# The paper's invoice example"} {
			if !strings.Contains(got, s) {
				t.Errorf("after %s the text lacks %q:\n%s", what, s, got)
			}
		}
		if strings.Contains(got, "weights:") || strings.Contains(got, "total: 7") || strings.Contains(got, "\n    total: 1\n") {
			t.Errorf("after %s the form wrote weights of its own:\n%s", what, got)
		}
		return got
	}
	b.setControl(`#weights input[data-path="total"]`, "7")
	time.Sleep(300 * time.Millisecond)
	keeps("a weight typed into the form")

	b.setControl("#domain", "legal")
	poll[bool](b, "the domain edit", `document.getElementById("yaml").value.includes("domain: legal")`, 3*time.Second,
		`"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	keeps("a domain edit")
	if !strings.Contains(eval[string](b, `document.body.innerText`), "unknown_key") {
		t.Error("the unknown key is no longer reported")
	}
}

// TestBrowserForm14DuplicateKey: a duplicate key pauses the form with the CLI's words
// (duplicate_key at its line), not "does not parse".
func TestBrowserForm14DuplicateKey(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	b.setYAML(strings.Replace(invoiceYAML(t), "benchmark:\n", "benchmark:\n  task: extract\n", 1))
	poll[bool](b, "the form to pause with duplicate_key", `(() => {
		const p = document.getElementById("form-paused");
		return p !== null && p.textContent.includes("duplicate_key");
	})()`, 3*time.Second, editorStateJS)
}
