package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// mediaYAML is a benchmark with every kind of artifact: the invoice stand-in answers each
// example with the JSON its "image" holds, so the prediction's drawing is whatever that
// file names.
const mediaYAML = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {image: image, sound: audio, doc: document}
  output:
    label: {enum: [cat, dog]}
    drawing: image
scoring:
  weights: {label: 1, drawing: 1}
  aggregator: weighted_mean
data: {path: ./data/rows.jsonl}
ai-system: {type: external, id: invoice-extractor-v7}
`

// mediaWorkspace is runWorkspace with media/: three examples whose images, sounds and
// documents are files of media/files/ (relative to the dataset's folder, media/data/),
// a page.html and a pic.svg among them, and produced drawings in media/out/ (example 0),
// the temporary directory (1), of an invalid output (2: its label is no member) and of
// the workspace outside media/ (3; the engine takes it as the test's workspace is in the
// temporary directory).
func mediaWorkspace(t *testing.T) (dir, tmpDrawing string) {
	t.Helper()
	dir = runWorkspace(t, slow{})
	tmp, err := os.CreateTemp("", "benchy-drawing-*.png")
	if err != nil {
		t.Fatal(err)
	}
	tmp.WriteString("PNG in tmp")
	tmp.Close()
	t.Cleanup(func() { os.Remove(tmp.Name()) })
	answers := []string{`{"label": "cat", "drawing": "out/d0.png"}`, `{"label": "dog", "drawing": "` + tmp.Name() + `"}`, `{"label": "bird", "drawing": "out/d0.png"}`, `{"label": "cat", "drawing": "../slow/data.jsonl"}`}
	rows := ""
	files := map[string]string{"media/benchmark.yaml": mediaYAML, "media/out/d0.png": "PNG 0", ".env": "SECRET=1\n"}
	docs := []string{"page.html", "pic.svg", "notes.pdf", "notes.txt"}
	for i, a := range answers {
		n := string(rune('0' + i))
		files["media/files/x"+n+".png"] = a
		files["media/files/s"+n+".wav"] = strings.Repeat("RIFF"+n, 1000)
		files["media/files/"+docs[i]] = "<html><script>alert(1)</script></html>"
		files["media/files/e"+n+".png"] = "expected " + n
		rows += `{"input": {"image": "../files/x` + n + `.png", "sound": "../files/s` + n + `.wav", "doc": "../files/` + docs[i] + `"}, "expected": {"label": "cat", "drawing": "../files/e` + n + `.png"}}` + "\n"
	}
	files["media/data/rows.jsonl"] = rows
	testkit.WriteFiles(t, dir, files)
	return dir, tmp.Name()
}

// getRaw asks srv for the raw path p (as sent, not cleaned by the client).
func getRaw(t *testing.T, srv *httptest.Server, p string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+p, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = p // sent as written: no dot segment resolved, no escape undone
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// TestArtifactsServed: the artifact endpoint serves each artifact example N references,
// input, expected and produced, with a content type from its table (an .html or .svg
// document is refused: no document's type), nosniff and a sandboxing CSP on every answer,
// ranges for audio; and refuses every other path: another example's file, another run's,
// .., %2e%2e, an absolute path, .env, a produced artifact of the temporary directory or of
// an invalid result, and a file replaced by a link out of the workspace since.
func TestArtifactsServed(t *testing.T) {
	dir, tmpDrawing := mediaWorkspace(t)
	_, srv := serve(t, Config{Workspace: dir})
	media := startRun(t, srv, `{"benchmark": "media/benchmark.yaml"}`)
	invoices := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	for _, id := range []string{media, invoices} {
		if r := waitStatus(t, srv, id, store.Completed); r.Summary == nil {
			t.Fatalf("run %s: %+v", id, r)
		}
	}
	var d0 api.ExampleDetail
	decode(t, srv, "GET", api.ExamplePath(media, 0), "", http.StatusOK, &d0)
	if len(d0.Artifacts) != 4 || !strings.Contains(d0.ArtifactNotes["../files/page.html"], "a .html file") { // image, sound, expected drawing, produced drawing; not the .html
		t.Errorf("example 0's artifacts: %v, notes %v", d0.Artifacts, d0.ArtifactNotes)
	}
	served := []struct {
		index                 int
		value, ctype, disp    string
		body                  string
		wantStatus            int
		header                []string
		wantRange, wantLength string
	}{
		{index: 0, value: "../files/x0.png", ctype: "image/png", disp: `inline; filename=x0.png`, wantStatus: 200},
		{index: 0, value: "../files/e0.png", ctype: "image/png", disp: `inline; filename=e0.png`, body: "expected 0", wantStatus: 200},
		{index: 0, value: "out/d0.png", ctype: "image/png", disp: `inline; filename=d0.png`, body: "PNG 0", wantStatus: 200},
		{index: 0, value: "../files/page.html", ctype: "application/json", wantStatus: 400}, // no document's type
		{index: 1, value: "../files/pic.svg", ctype: "application/json", wantStatus: 400},
		{index: 3, value: "../files/notes.txt", ctype: "text/plain; charset=utf-8", disp: `inline; filename=notes.txt`, wantStatus: 200},
		{index: 2, value: "../files/notes.pdf", ctype: "application/pdf", disp: `inline; filename=notes.pdf`, wantStatus: 200},
		{index: 1, value: "../files/s1.wav", ctype: "audio/wav", header: []string{"Range", "bytes=5-9"}, body: "RIFF1", wantStatus: 206, wantRange: "bytes 5-9/5000"},
		// Thousands of small ranges made a multipart answer 12 times the header's size: more
		// than maxRanges are answered with the whole file.
		{index: 1, value: "../files/s1.wav", ctype: "audio/wav", header: []string{"Range", manyRanges(1000)}, wantStatus: 200},
	}
	for _, c := range served {
		resp, body := getRaw(t, srv, api.ArtifactPath(media, c.index, c.value), c.header...)
		h := resp.Header
		switch {
		case resp.StatusCode != c.wantStatus:
			t.Errorf("%s: %d %s, want %d", c.value, resp.StatusCode, body, c.wantStatus)
		case h.Get("Content-Type") != c.ctype:
			t.Errorf("%s: Content-Type %q, want %q", c.value, h.Get("Content-Type"), c.ctype)
		case c.disp != "" && h.Get("Content-Disposition") != c.disp:
			t.Errorf("%s: Content-Disposition %q, want %q", c.value, h.Get("Content-Disposition"), c.disp)
		case c.body != "" && body != c.body:
			t.Errorf("%s: body %q, want %q", c.value, body, c.body)
		case c.wantRange != "" && h.Get("Content-Range") != c.wantRange:
			t.Errorf("%s: Content-Range %q, want %q", c.value, h.Get("Content-Range"), c.wantRange)
		}
		checkSandboxed(t, c.value, resp)
	}

	// A link out of the workspace put in place of a referenced file since the run.
	top := filepath.Dir(dir)
	os.WriteFile(filepath.Join(top, "outside.png"), []byte("OUTSIDE"), 0o644)
	s2 := filepath.Join(dir, "media", "files", "s2.wav")
	os.Remove(s2)
	if err := os.Symlink(filepath.Join(top, "outside.png"), s2); err != nil {
		t.Fatal(err)
	}
	x2 := filepath.Join(dir, "media", "files", "x2.png")
	os.Remove(x2)
	if err := os.Symlink(filepath.Join(dir, ".env"), x2); err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		path string
		want int
	}{
		{api.ArtifactPath(media, 0, "../files/x1.png"), 404},       // example 1's
		{api.ArtifactPath(media, 0, "../files/x0.png") + "x", 404}, // no such reference
		{api.ArtifactPath(invoices, 0, "../files/x0.png"), 404},    // another run's example
		{api.ArtifactPath(media, 0, "../images/invoice-001.png"), 404},
		{api.ArtifactPath(media, 0, "../../.env"), 404},
		{api.ArtifactPath(media, 0, ".env"), 404},
		{api.ArtifactPath(media, 0, "/etc/passwd"), 404},
		{api.ArtifactPath(media, 0, "../../"+RuntimeFile), 404},
		{"/api/runs/" + media + "/artifacts/0/%2e%2e/%2e%2e/.env", 404},
		{"/api/runs/" + media + "/artifacts/0/..%2F..%2F..%2F.env", 404},
		{"/api/runs/" + media + "/artifacts/0/../../../.env", 400}, // not clean: refused before the mux would redirect it
		{api.ArtifactPath(media, 1, tmpDrawing), 400},              // produced, in the temporary directory
		{api.ArtifactPath(media, 2, "out/d0.png"), 404},            // produced by an invalid result
		{api.ArtifactPath(media, 3, "../slow/data.jsonl"), 400},    // produced outside the benchmark's folder
		{api.ArtifactPath(media, 2, "../files/s2.wav"), 0},         // now a link out of the workspace
		{api.ArtifactPath(media, 2, "../files/x2.png"), 0},         // now a link to .env
		{api.ArtifactPath(media, 9, "../files/x0.png"), 404},       // no such example
		{api.ArtifactPath("nosuchrun", 0, "../files/x0.png"), 404},
	}
	for _, c := range refused {
		resp, body := getRaw(t, srv, c.path)
		if resp.StatusCode == http.StatusOK || strings.Contains(body, "SECRET") || strings.Contains(body, "OUTSIDE") || strings.Contains(body, "PNG in tmp") {
			t.Errorf("%s: %d %s: served", c.path, resp.StatusCode, body)
			continue
		}
		if c.want != 0 && resp.StatusCode != c.want || c.want == 0 && resp.StatusCode/100 != 4 {
			t.Errorf("%s: %d %s, want %d", c.path, resp.StatusCode, body, c.want)
		}
		checkSandboxed(t, c.path, resp)
	}
	var d2 api.ExampleDetail
	decode(t, srv, "GET", api.ExamplePath(media, 2), "", http.StatusOK, &d2)
	if _, ok := d2.Artifacts["out/d0.png"]; ok {
		t.Errorf("example 2's produced drawing of an invalid output is served: %v", d2.Artifacts)
	}
	for _, v := range []string{"../files/s2.wav", "../files/x2.png"} {
		if _, ok := d2.Artifacts[v]; ok {
			t.Errorf("example 2's %s is served: %v, notes %v", v, d2.Artifacts, d2.ArtifactNotes)
		}
	}
	var d3 api.ExampleDetail
	decode(t, srv, "GET", api.ExamplePath(media, 3), "", http.StatusOK, &d3)
	if _, ok := d3.Artifacts["../slow/data.jsonl"]; ok || d3.ArtifactNotes["../slow/data.jsonl"] == "" {
		t.Errorf("example 3's drawing outside media/: %v, notes %v", d3.Artifacts, d3.ArtifactNotes)
	}
}

// checkSandboxed: an answer of the artifact endpoint runs no script, whatever it holds.
func checkSandboxed(t *testing.T, what string, resp *http.Response) {
	t.Helper()
	h := resp.Header
	if h.Get("Content-Security-Policy") != artifactCSP || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: CSP %q, nosniff %q", what, h.Get("Content-Security-Policy"), h.Get("X-Content-Type-Options"))
	}
	if ct := h.Get("Content-Type"); strings.Contains(ct, "html") || strings.Contains(ct, "svg") || strings.Contains(ct, "xml") || strings.Contains(ct, "javascript") {
		t.Errorf("%s: Content-Type %q can run script", what, ct)
	}
}

// manyRanges is a Range header of n two-byte ranges.
func manyRanges(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%d-%d", 2*i, 2*i+1)
	}
	return "bytes=" + strings.Join(parts, ",")
}
