package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrowserOpenInvalidUTF8: a workspace benchmark that is not valid UTF-8 does not open,
// by Open… or at /?path=: its text would come with U+FFFD for the bad byte, which a save
// would write over it. The editor says which file, where and what to do (the CLI's
// invalid_yaml, at its line and column), keeps the draft it shows, unsaved edits
// included, and the URL, Open… and the path to save to go on naming that draft's file.
// Neither file on disk changes.
func TestBrowserOpenInvalidUTF8(t *testing.T) {
	requireBrowser(t)
	dir := invoiceWorkspace(t, t.TempDir(), false)
	good, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(good), "domain: finance", "domain: fin\xffance", 1)
	if bad == string(good) {
		t.Fatal("the example has no domain: finance to spoil")
	}
	utfFile := filepath.Join(dir, "utf.yaml")
	if err := os.WriteFile(utfFile, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := cliDiagnostics(t, bad)
	if len(ds) != 1 || ds[0].Code != "invalid_yaml" {
		t.Fatalf("benchy validate says %v, want one invalid_yaml", ds)
	}
	want := fmt.Sprintf("not valid UTF-8 at line %d, column %d: fix it outside the editor", ds[0].Line, ds[0].Column)
	srv := startServer(t, dir)
	b := newBrowser(t, 90*time.Second)
	b.ignoreConsole("status of 422 (Unprocessable Entity) " + srv.URL("/api/benchmarks/utf.yaml")) // the refusals this test makes
	b.open(srv.URL("/?path=benchmark.yaml"))
	b.waitEditorNote("opened benchmark.yaml")
	poll[bool](b, "Open… to list utf.yaml as invalid", `[...document.getElementById("open").options].some(o => o.value === "utf.yaml" && o.textContent.endsWith("(invalid)"))`, 10*time.Second,
		`JSON.stringify([...document.getElementById("open").options].map(o => o.textContent))`)

	// refused opens utf.yaml (by open) and checks that the editor said why and kept text.
	refused := func(how, text string, open func()) {
		t.Helper()
		b.resetNetwork()
		open()
		b.waitRequest("/api/benchmarks/utf.yaml")
		poll[bool](b, how+": the note that utf.yaml is not UTF-8", `(() => {
			const n = document.getElementById("editor-note");
			return n !== null && n.classList.contains("error") && n.textContent.startsWith("cannot open utf.yaml: ") && n.textContent.includes(`+js(want)+`);
		})()`, 10*time.Second, `"note: " + JSON.stringify((document.getElementById("editor-note") || {}).textContent)`)
		time.Sleep(300 * time.Millisecond) // what a late answer would still do
		if got := b.yamlText(); got != text {
			t.Errorf("%s: the editor shows %q, want the draft %q", how, short(got), short(text))
		}
		if got := b.address(); got != "/?path=benchmark.yaml" {
			t.Errorf("%s: the URL is %q, want the draft's file", how, got)
		}
		for id, wantValue := range map[string]string{"open": "benchmark.yaml", "save-path": "benchmark.yaml"} {
			if got := eval[string](b, `document.getElementById(`+js(id)+`).value`); got != wantValue {
				t.Errorf("%s: #%s is %q, want %q", how, id, got, wantValue)
			}
		}
		if got := b.exists("#unsaved"); got != (text != string(good)) {
			t.Errorf("%s: the unsaved badge shows: %v", how, got)
		}
	}

	// Nothing unsaved: Open… acts at once, and keeps the file shown.
	refused("Open…", string(good), func() { b.setControl("#open", "utf.yaml") })
	b.screenshot("editor-open-invalid-utf8")

	// Unsaved edits: Open… asks; even after "Discard my edits" they stay, as nothing opened.
	edited := string(good) + "# my edit\n"
	b.setYAML(edited)
	poll[bool](b, "the unsaved badge", `document.getElementById("unsaved") !== null`, 5*time.Second, editorStateJS)
	refused("Open… over edits", edited, func() {
		b.setControl("#open", "utf.yaml")
		b.waitAsk()
		b.clickJS("#discard-edits")
	})

	// The file's address: the kept draft shows, and the URL names its file again.
	refused("/?path=utf.yaml", edited, func() { b.open(srv.URL("/?path=utf.yaml")) })

	if got, _ := os.ReadFile(utfFile); string(got) != bad {
		t.Errorf("utf.yaml changed on disk: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "benchmark.yaml")); string(got) != string(good) {
		t.Errorf("benchmark.yaml changed on disk: %q", short(string(got)))
	}
}
