package cli_test

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportSaysItsFilter: a filtered export is not taken for the whole run. The server
// names it after its filter (benchy-ID-wrong-total.csv, -imperfect.json; the whole run
// benchy-ID.csv), which the web's buttons save; its JSON, from the server and from runs
// export alike, has "filter" and "selected" beside the whole run's summary; JSONL lines
// are compact, the dataset's input and expected output too (written with spaces).
func TestExportSaysItsFilter(t *testing.T) {
	dir := invoiceRun(t)
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	m := storedLine.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	id := m[1]
	srv := serveAPI(t, dir)
	get := func(query string) (string, []byte) {
		resp, err := srv.Client().Get(srv.URL + "/api/runs/" + id + "/results?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, resp.StatusCode, b)
		}
		return resp.Header.Get("Content-Disposition"), b
	}
	for query, want := range map[string]string{
		"format=csv":                        "benchy-" + id + ".csv",
		"format=csv&wrong=total":            "benchy-" + id + "-wrong-total.csv",
		"format=jsonl&status=valid":         "benchy-" + id + "-status-valid.jsonl",
		"format=csv&q=Acme%20S.L.":          "benchy-" + id + "-q.csv",
		"format=json&imperfect=1":           "benchy-" + id + "-imperfect.json",
		"format=csv&imperfect=1&sort=score": "benchy-" + id + "-imperfect-sort-score.csv",
	} {
		if cd, _ := get(query); cd != `attachment; filename="`+want+`"` {
			t.Errorf("%s: Content-Disposition %q, want %s", query, cd, want)
		}
	}
	type doc struct {
		Summary  struct{ Examples int }
		Filter   map[string]string
		Selected *int
		Results  []json.RawMessage
	}
	_, body := get("format=json&imperfect=1")
	code, stdout, stderr := runBenchy(t, "runs", "export", "--workspace", dir, "--imperfect", id)
	if code != 0 {
		t.Fatalf("runs export --imperfect: exit %d\n%s", code, stderr)
	}
	for from, b := range map[string][]byte{"server": body, "runs export": []byte(stdout)} {
		var d doc
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", from, err)
		}
		if d.Filter["imperfect"] != "1" || d.Selected == nil || *d.Selected != len(d.Results) || len(d.Results) == 0 || d.Summary.Examples <= len(d.Results) {
			t.Errorf("%s: filter %v, selected %v of %d results, summary of %d examples", from, d.Filter, d.Selected, len(d.Results), d.Summary.Examples)
		}
	}
	code, stdout, _ = runBenchy(t, "runs", "export", "--workspace", dir, "--format", "jsonl", id)
	if code != 0 || !strings.Contains(stdout, `"input":{"image":"../images/invoice-001.png"},"expected":{"invoice_number":"F-001","date"`) || strings.Contains(stdout, `": `) {
		t.Errorf("jsonl: exit %d, not compact:\n%.600s", code, stdout)
	}
}
