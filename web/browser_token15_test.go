package web_test

// Browser tests of the results explorer on a server that wants a token (issue 15): a
// plain <img src>, <audio src> or <a href> cannot send it, so the example view fetches
// each artifact with the token and shows it through a blob: URL, revoked when the example
// changes; a file over client.MaxBlob is not fetched but offered to download. And the
// pager's Previous from a page reached by a link goes to the page before, not the first.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/benchy-eval/benchy/api"
)

// testToken is the token the token-protected servers of these tests want.
const testToken = "results15-token-0123456789"

// startTokenServer starts `benchy serve --workspace dir --token token` for one test and
// waits until it answers GET /api/ontology with the token.
func startTokenServer(t *testing.T, dir, token string) *benchyServer {
	t.Helper()
	s := &benchyServer{bin: benchyBinary(t), dir: dir, addr: "127.0.0.1:0", log: &serverLog{addr: make(chan string, 1)}}
	cmd := exec.Command(s.bin, "serve", "--workspace", dir, "--addr", s.addr, "--grace", "2s", "--token", token)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Error(err)
		}
	})
	select {
	case s.addr = <-s.log.addr:
	case <-s.done:
		t.Fatalf("benchy serve exited: %v\n%s", cmd.ProcessState, s.log)
	case <-time.After(20 * time.Second):
		t.Fatalf("benchy serve did not say where it listens\n%s", s.log)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, _ := authDo(s, token, "GET", "/api/ontology", "", nil); code == http.StatusOK {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("benchy serve --token does not answer GET /api/ontology\n%s", s.log)
		}
	}
}

// authDo sends a request with Authorization: Bearer token (none for "") and decodes a
// JSON answer into v; it returns the status.
func authDo(s *benchyServer, token, method, path, body string, v any) (int, error) {
	req, err := http.NewRequest(method, s.URL(path), strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || v == nil || resp.StatusCode >= 300 {
		return resp.StatusCode, err
	}
	return resp.StatusCode, json.Unmarshal(data, v)
}

// tokenRun starts a run of benchmark on srv with token and waits until it completed.
func tokenRun(t *testing.T, srv *benchyServer, token, benchmark string, wait time.Duration) string {
	t.Helper()
	var started struct {
		ID string `json:"id"`
	}
	if code, err := authDo(srv, token, "POST", "/api/runs", `{"benchmark": `+js(benchmark)+`}`, &started); code != http.StatusAccepted && code != http.StatusOK && code != http.StatusCreated || err != nil {
		t.Fatalf("POST /api/runs %s: %d %v\n%s", benchmark, code, err, srv.log)
	}
	var run api.Run
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, err := authDo(srv, token, "GET", "/api/runs/"+started.ID, "", &run); err != nil {
			t.Fatal(err)
		}
		if run.Status == api.Completed {
			return started.ID
		}
		if !api.Active(run.Status) {
			t.Fatalf("run %s of %s is %s\n%s", started.ID, benchmark, run.Status, srv.log)
		}
	}
	t.Fatalf("run %s of %s: %s after %s", started.ID, benchmark, run.Status, wait)
	return ""
}

// tokenResults reads every result of run id with token, unfiltered.
func tokenResults(t *testing.T, srv *benchyServer, token, id string) []api.Result {
	t.Helper()
	var out []api.Result
	for after := -1; ; {
		q := url.Values{"limit": {"100"}}
		if after >= 0 {
			q.Set("after", strconv.Itoa(after))
		}
		var pg api.ResultPage
		if code, err := authDo(srv, token, "GET", api.ResultsPath(id, q), "", &pg); code != http.StatusOK || err != nil {
			t.Fatalf("results of %s: %d %v", id, code, err)
		}
		out = append(out, pg.Results...)
		if pg.Next < 0 {
			return out
		}
		after = pg.Next
	}
}

// useToken keeps token in the tab's sessionStorage, as the token form does, and opens url.
func (b *browser) useToken(token, url string) {
	b.t.Helper()
	b.open(url)
	eval[bool](b, `(sessionStorage.setItem("benchy-token", `+js(token)+`), true)`)
	b.open(url)
}

// recordBlobsJS keeps each blob the page makes a URL of (window.benchyObjects) and each
// URL it revokes (window.benchyRevoked): the app's CSP lets no script fetch a blob: URL
// (connect-src 'self'), so the tests read the blobs themselves.
const recordBlobsJS = `window.benchyObjects = {};
window.benchyRevoked = [];
const benchyCreate = URL.createObjectURL.bind(URL), benchyRevoke = URL.revokeObjectURL.bind(URL);
URL.createObjectURL = b => { const u = benchyCreate(b); window.benchyObjects[u] = b; return u; };
URL.revokeObjectURL = u => { window.benchyRevoked.push(u); benchyRevoke(u); };`

// blobJS says "type|first bytes" of the blob the href of the element matching selector
// is a URL of.
func blobJS(selector string) string {
	return `(async () => {
		const a = document.querySelector(` + js(selector) + `), b = a && window.benchyObjects[a.href];
		if (!b) return "no blob";
		const head = new Uint8Array(await b.slice(0, 5).arrayBuffer());
		return b.type + "|" + String.fromCharCode(...head);
	})()`
}

// fetchedJS fetches the href of the element matching selector from the page and says
// "status|content type|first bytes" of its answer.
func fetchedJS(selector string) string {
	return `(async () => {
		const a = document.querySelector(` + js(selector) + `);
		if (!a) return "no link";
		const r = await fetch(a.href);
		const b = new Uint8Array(await r.arrayBuffer());
		return r.status + "|" + (r.headers.get("Content-Type") || "") + "|" + String.fromCharCode(...b.slice(0, 5));
	})()`
}

// TestBrowserResults15Token: on a server that wants a token, the example view draws the
// image, loads the audio and links the document through blob: URLs of files fetched with
// the token (a plain URL answers 401); moving to the next example revokes them; a
// document over 64 MiB is not fetched but said to be too big, with a download link.
func TestBrowserResults15Token(t *testing.T) {
	requireBrowser(t)
	dir := mediaWorkspace(t)
	// Example 2's document is 65 MiB (sparse: nothing written).
	big := filepath.Join(dir, "media", "big.pdf")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 65<<20); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "media.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[2] = bytes.Replace(lines[2], []byte(`media/spec.pdf`), []byte(`media/big.pdf`), 1)
	if err := os.WriteFile(filepath.Join(dir, "media.jsonl"), bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startTokenServer(t, dir, testToken)
	id := tokenRun(t, srv, testToken, "media.yaml", 30*time.Second)
	if code, _ := authDo(srv, "", "GET", "/api/runs/"+id, "", nil); code != http.StatusUnauthorized {
		t.Fatalf("the server answers a request without its token %d, want 401", code)
	}

	b := newBrowser(t, 90*time.Second)
	b.ignoreConsole("status of 401") // the first visit, before the tab has the token
	b.run(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordBlobsJS})
		return err
	}))
	b.useToken(testToken, srv.URL("/results?run="+id+"&example=1"))
	waitExample(b, 1)
	width := poll[int](b, "the image drawn from a blob", `(() => { const i = document.querySelector("#example-input img.artifact-image"); return i && i.src.startsWith("blob:") && i.complete && i.naturalWidth; })()`, 10*time.Second,
		`(() => { const i = document.querySelector("#example-input img"); return i ? "img " + i.src + " complete " + i.complete : document.getElementById("example-input").innerText; })()`)
	if width != 80 {
		t.Errorf("the image of example 1 is %d px wide, want 80 (media/p1.png)", width)
	}
	poll[bool](b, "the audio's metadata loaded from a blob", `(() => { const a = document.querySelector("#example-input audio"); return a !== null && a.src.startsWith("blob:") && a.readyState >= 1 && a.duration > 0.2; })()`, 10*time.Second,
		`(() => { const a = document.querySelector("#example-input audio"); return a ? "audio " + a.src + " readyState " + a.readyState + " error " + (a.error && a.error.code) : "no audio"; })()`)
	doc := `#example-input [data-path="doc"] a.artifact-link`
	poll[bool](b, "the document linked as a blob", `(() => { const a = document.querySelector(`+js(doc)+`); return a !== null && a.href.startsWith("blob:"); })()`, 10*time.Second, "")
	if got := eval[string](b, `document.querySelector(`+js(doc)+`).getAttribute("download") || ""`); got != "spec.pdf" {
		t.Errorf("the document's link downloads as %q, want spec.pdf", got)
	}
	if got := eval[string](b, blobJS(doc)); got != "application/pdf|%PDF-" {
		t.Errorf("the document's link is a blob of %q, want application/pdf|%%PDF-", got)
	}
	old := eval[string](b, `document.querySelector("#example-input img.artifact-image").src`)

	// The next example: its own blobs; the old ones are revoked.
	b.run(chromedp.KeyEvent("j"))
	waitExample(b, 2)
	poll[bool](b, "the image of example 2 drawn", `(() => { const i = document.querySelector("#example-input img.artifact-image"); return i && i.src.startsWith("blob:") && i.complete && i.naturalWidth === 96; })()`, 10*time.Second, "")
	if !eval[bool](b, `window.benchyRevoked.includes(`+js(old)+`)`) {
		t.Errorf("the blob of example 1's image is not revoked after moving on")
	}
	// Example 2's document is too big to fetch: said, with a download link.
	note := poll[string](b, "the too-big note", `(document.querySelector('#example-input [data-path="doc"] .artifact-note') || {}).textContent || ""`, 10*time.Second, `document.getElementById("example-input").innerText`)
	if !strings.Contains(note, "65.0 MiB") || !strings.Contains(note, "64.0 MiB") {
		t.Errorf("example 2's document says %q, want its size and the bound", note)
	}
	if href := eval[string](b, `(document.querySelector('#example-input [data-path="doc"] a.artifact-url') || {}).href || ""`); !strings.Contains(href, "/api/runs/"+id+"/artifacts/2/") {
		t.Errorf("the too-big document links %q, want its artifact URL", href)
	}
	if cmd := b.text(`#example-input [data-path="doc"] pre.artifact-command`); !strings.Contains(cmd, "Authorization: Bearer") || !strings.Contains(cmd, srv.URL("/api/runs/"+id+"/artifacts/2/")) {
		t.Errorf("the too-big document's command is %q, want curl with the token header and the file's URL", cmd)
	}
	poll[bool](b, "the audio of example 2 loaded", `(() => { const a = document.querySelector("#example-input audio"); return a !== null && a.src.startsWith("blob:") && a.readyState >= 1 && a.duration > 0.2; })()`, 10*time.Second, "")
	b.screenshot("results15-token-example")
}

// TestBrowserResults15PrevFromLink: Previous on a page reached by a link (no pages before
// it in memory) goes to the page before it under the filter, not to the first page; the
// same without a filter.
func TestBrowserResults15PrevFromLink(t *testing.T) {
	requireBrowser(t)
	dir := mediaWorkspace(t)
	var many bytes.Buffer
	for i := range 230 {
		n := i % 60 // the media benchmark's notes: 13 and 22 are not valid
		line, _ := json.Marshal(map[string]any{
			"input":    map[string]any{"photo": "media/p0.png", "clip": "media/beep.wav", "note": mediaNote(n), "doc": "media/spec.pdf"},
			"expected": map[string]any{"kind": mediaKinds[n%3], "count": n % 4},
		})
		many.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "many.jsonl"), many.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "many.yaml"), []byte(fmt.Sprintf(mediaBenchmark, "many", "media-v1")), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, dir)
	id := mediaRun(t, srv, "many.yaml")
	results := allResults(t, srv, id)
	for _, tc := range []struct {
		name   string
		filter url.Values
	}{
		{"valid", url.Values{"status": {"valid"}}},
		{"none", url.Values{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The pages as the server cuts them from the first: their "after"s.
			var selected []int
			for _, r := range results {
				if tc.filter.Get("status") == "" || r.Status == tc.filter.Get("status") {
					selected = append(selected, r.Index)
				}
			}
			if len(selected) < 4*50 {
				t.Fatalf("the filter selects %d examples, want 4 pages of 50", len(selected))
			}
			pageOf := func(n int) []int { return selected[n*50 : min((n+1)*50, len(selected))] }
			b := newBrowser(t, 60*time.Second)
			q := tc.filter
			q.Set("run", id)
			q.Set("after", strconv.Itoa(selected[3*50-1]))
			b.open(srv.URL("/results?" + q.Encode()))
			if got := waitTable(b); !slices.Equal(got, pageOf(3)) {
				t.Fatalf("the page after %d shows %v, want %v", selected[3*50-1], got, pageOf(3))
			}
			for _, n := range []int{2, 1, 0} {
				b.clickJS("#prev-page")
				poll[bool](b, fmt.Sprintf("page %d", n), fmt.Sprintf(`(() => { const r = document.querySelector("#results-table tr.result"); return r !== null && r.dataset.index === "%d" && document.getElementById("results-page").dataset.ready === "1"; })()`, pageOf(n)[0]), 10*time.Second,
					`location.href + ": first row " + (document.querySelector("#results-table tr.result") || {dataset: {}}).dataset.index`)
				if got := waitTable(b); !slices.Equal(got, pageOf(n)) {
					t.Errorf("Previous shows %v, want page %d: %v", got, n, pageOf(n))
				}
			}
			if !eval[bool](b, `document.getElementById("prev-page").disabled`) {
				t.Errorf("Previous is enabled on the first page")
			}
			// Forward again, then back: the pages in memory.
			b.clickJS("#next-page")
			poll[bool](b, "page 1 again", fmt.Sprintf(`(() => { const r = document.querySelector("#results-table tr.result"); return r !== null && r.dataset.index === "%d"; })()`, pageOf(1)[0]), 10*time.Second, "")
			b.clickJS("#prev-page")
			poll[bool](b, "page 0 again", fmt.Sprintf(`(() => { const r = document.querySelector("#results-table tr.result"); return r !== null && r.dataset.index === "%d"; })()`, pageOf(0)[0]), 10*time.Second, "")
		})
	}
}
