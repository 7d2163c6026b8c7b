package server

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// attackYAML is a benchmark whose image and document fields a dataset row uploaded
// through the API fills with whatever it likes.
const attackYAML = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {image: image, doc: document}
  output:
    label: {enum: [cat, dog]}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: ./data/rows.jsonl}
ai-system: {type: external, id: invoice-extractor-v7}
`

// attackRows are the rows of b1/data/rows.jsonl (paths relative to b1/data/) and
// whether each of its two artifacts is served.
var attackRows = []struct {
	image, doc       string
	imageOK, docOK   bool
	imageWhy, docWhy string // a word of the refusal's sentence
}{
	{"../img/a0.png", "../../readme.txt", true, true, "", ""},
	{"../../sys.sh", "../../keys.json", false, false, ".sh file", ".json file"},
	{"../../ci.runtime.yaml", "../../notes.txt", false, false, ".yaml file", "runtime file under another name"},
	{"../../tool.png", "../img/a0.png", false, false, "command", ".png file"},
	{"../img/k.png", "../../link.txt", false, false, "hidden", "another kind"}, // k.png: a link to sub/.secrets/ once run
	{"../img/a1.png", "../../readme.txt", false, true, "hard-linked", ""},      // to .benchy/benchy.db
	{"../img/a2.png", "../../readme.txt", false, true, "hard-linked", ""},      // to sub/.secrets/key.png
	{"../img/a3.png", "../../readme.txt", false, true, "hard-linked", ""},      // to .git/config
	{"../img/a4.png", "../../readme.txt", false, true, "hard-linked", ""},      // to a file outside
}

// TestArtifactsAttacked is the attacker's review of the artifact endpoint as a test: a
// benchmark and its dataset saved through the API name workspace files that are no
// example's media as images and documents, and none is served nor offered by the
// example's detail (which says why in its notes, with no absolute path): a script, keys
// in JSON, a runtime file under another name (a .yaml, and a .txt that is one by its
// content), a file a binding's command names, a file in a nested hidden folder, a link
// named .txt to a .json, and hard links to the store, to a nested secret, to .git/config
// and to a file outside the workspace. The image and the text document of row 0 are.
func TestArtifactsAttacked(t *testing.T) {
	dir := runWorkspace(t, slow{})
	top := filepath.Dir(dir)
	secret := "providers:\n  p:\n    base_url: https://user:SECRET@example.com\n"
	rt, err := os.ReadFile(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile:            string(rt) + "  helper:\n    command: [./tool.png]\n",
		"b1/img/a0.png":        `{"label": "cat"}`,
		"b1/img/k.png":         `{"label": "cat"}`,
		"b1/img/a1.png":        `{"label": "cat"}`,
		"b1/img/a2.png":        `{"label": "cat"}`,
		"b1/img/a3.png":        `{"label": "cat"}`,
		"b1/img/a4.png":        `{"label": "cat"}`,
		"readme.txt":           "plain text",
		"sys.sh":               "#!/bin/sh\necho SECRET\n",
		"keys.json":            `{"key": "SECRET"}`,
		"ci.runtime.yaml":      secret,
		"notes.txt":            "# a runtime file by another name\n" + secret,
		"tool.png":             "SECRET program",
		"sub/.secrets/key.png": "SECRET nested",
		".git/config":          "[remote] url = https://SECRET@example.com\n",
	})
	os.WriteFile(filepath.Join(top, "outside.png"), []byte("SECRET outside"), 0o644)
	if err := os.Symlink("keys.json", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	_, srv := serve(t, Config{Workspace: dir})
	rows := ""
	for _, r := range attackRows {
		row, _ := json.Marshal(map[string]any{"input": map[string]string{"image": r.image, "doc": r.doc}, "expected": map[string]string{"label": "cat"}})
		rows += string(row) + "\n"
	}
	yaml, _ := json.Marshal(map[string]string{"yaml": attackYAML})
	decode(t, srv, "PUT", "/api/benchmarks/b1/benchmark.yaml", string(yaml), http.StatusOK, nil)
	upload, _ := json.Marshal(map[string]string{"base64": base64.StdEncoding.EncodeToString([]byte(rows))})
	decode(t, srv, "PUT", "/api/files/b1/data/rows.jsonl", string(upload), http.StatusOK, nil)
	id := startRun(t, srv, `{"benchmark": "b1/benchmark.yaml"}`)
	if r := waitRun(t, srv, id, "done", func(v api.Run) bool { return v.Status != string(store.Running) && v.Status != string(store.Queued) }); r.Status != string(store.Completed) {
		t.Fatalf("run %s: %s %+v", id, r.Status, r.Error)
	}

	// Once run (the engine refuses a hidden file before it starts), k.png becomes a link
	// into a nested hidden folder and a1-a4 hard links to private files.
	k := filepath.Join(dir, "b1/img/k.png")
	os.Remove(k)
	if err := os.Symlink("../../sub/.secrets/key.png", k); err != nil {
		t.Fatal(err)
	}
	for i, target := range []string{".benchy/benchy.db", "sub/.secrets/key.png", ".git/config", "../outside.png"} {
		a := filepath.Join(dir, "b1/img/a"+strconv.Itoa(i+1)+".png")
		os.Remove(a)
		if err := os.Link(filepath.Join(dir, target), a); err != nil {
			t.Fatal(err)
		}
	}

	for i, r := range attackRows {
		var d api.ExampleDetail
		decode(t, srv, "GET", api.ExamplePath(id, i), "", http.StatusOK, &d)
		for _, a := range []struct {
			value, why string
			ok         bool
		}{{r.image, r.imageWhy, r.imageOK}, {r.doc, r.docWhy, r.docOK}} {
			resp, body := getRaw(t, srv, api.ArtifactPath(id, i, a.value))
			body = clipName(body)
			checkSandboxed(t, a.value, resp)
			note := d.ArtifactNotes[a.value]
			_, offered := d.Artifacts[a.value]
			switch {
			case strings.Contains(body, "SECRET"):
				t.Errorf("example %d %s: %d, served %q", i, a.value, resp.StatusCode, body)
			case a.ok && (resp.StatusCode != http.StatusOK || !offered):
				t.Errorf("example %d %s: %d %s, offered %v (%s), want it served", i, a.value, resp.StatusCode, body, offered, note)
			case a.ok:
			case resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, string(api.BadPath)) || !strings.Contains(body, a.why):
				t.Errorf("example %d %s: %d %s, want 400 bad_path saying %q", i, a.value, resp.StatusCode, body, a.why)
			case offered || !strings.Contains(note, a.why):
				t.Errorf("example %d %s: offered %v, note %q, want a note saying %q", i, a.value, offered, note, a.why)
			case strings.Contains(body, top) || strings.Contains(note, top):
				t.Errorf("example %d %s: an absolute path in %s / %s", i, a.value, body, note)
			}
		}
	}
}
