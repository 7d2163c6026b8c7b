package server

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestCharts: a run's charts count what its results hold: the statuses, the histogram of
// valid scores, errors by code, and each cell of the label's confusion matrix is the
// number of results the cell's filter selects and a count over every result gives.
func TestCharts(t *testing.T) {
	dir, _ := mediaWorkspace(t)
	_, srv := serve(t, Config{Workspace: dir})
	media := startRun(t, srv, `{"benchmark": "media/benchmark.yaml"}`)
	slowRun := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	waitStatus(t, srv, media, store.Completed)
	waitStatus(t, srv, slowRun, store.Completed)
	get := func(path string, v any) { decode(t, srv, "GET", path, "", http.StatusOK, v) }
	for _, id := range []string{media, slowRun} {
		var c api.Charts
		get(api.ChartsPath(id), &c)
		var all api.ResultPage
		get(api.ResultsPath(id, url.Values{"limit": {"1000"}}), &all)
		var sum api.Summary
		hist := make([]int, 11)
		codes := map[string]int{}
		for _, r := range all.Results {
			sum.Examples++
			switch r.Status {
			case api.Valid:
				sum.Valid++
				bin := min(int(*r.Score*10), 9)
				if *r.Score == 1 {
					bin = 10
				}
				hist[bin]++
			case api.InvalidOutput:
				sum.InvalidOutputs++
			case api.ExecutionError:
				sum.ExecutionErrors++
			}
			if r.Error != nil {
				codes[r.Error.Code]++
			}
		}
		if c.Summary != sum || !slices.Equal(c.Histogram, hist) {
			t.Errorf("%s: summary %+v histogram %v, want %+v %v", id, c.Summary, c.Histogram, sum, hist)
		}
		got := map[string]int{}
		for _, cc := range c.Codes {
			got[cc.Code] = cc.Count
		}
		if fmt.Sprint(got) != fmt.Sprint(codes) {
			t.Errorf("%s: codes %v, want %v", id, got, codes)
		}
		if id == slowRun {
			if len(c.Confusion) != 0 {
				t.Errorf("slow has no enum, but confusion %v", c.Confusion)
			}
			continue
		}
		if len(c.Confusion) != 1 || !slices.Equal(c.Confusion[0].Labels, []string{"cat", "dog"}) || c.Confusion[0].Members != 2 {
			t.Fatalf("media's confusion: %+v", c.Confusion)
		}
		m := c.Confusion[0]
		cells := 0
		for i, e := range m.Labels {
			for j, p := range m.Labels {
				want := 0
				for _, r := range all.Results {
					var ex, pr struct{ Label string }
					json.Unmarshal(r.Expected, &ex)
					json.Unmarshal(r.Prediction, &pr)
					if r.Status == api.Valid && ex.Label == e && pr.Label == p {
						want++
					}
				}
				var page api.ResultPage
				get(api.ResultsPath(id, url.Values{"field": {"label"}, "expected": {e}, "predicted": {p}}), &page)
				if m.Count(i, j) != want || len(page.Results) != want {
					t.Errorf("cell %s×%s: %d, its filter %d, want %d", e, p, m.Count(i, j), len(page.Results), want)
				}
				cells += want
			}
		}
		if cells == 0 {
			t.Error("every cell is empty: the test shows nothing")
		}
	}
}

// downAndFine serves a workspace with two completed runs: down (down/benchmark.yaml), all
// five of its examples execution errors, and fine (slow/benchmark.yaml), a few of them.
func downAndFine(t *testing.T) (srv *httptest.Server, down, fine string) {
	dir := runWorkspace(t, slow{})
	var rows strings.Builder
	for i := range 5 {
		fmt.Fprintf(&rows, `{"input": {"text": "fail-%d"}, "expected": {"number": "x", "total": 1}}`+"\n", i)
	}
	os.MkdirAll(filepath.Join(dir, "down"), 0o755)
	os.WriteFile(filepath.Join(dir, "down", "benchmark.yaml"), []byte(slowYAML), 0o644)
	os.WriteFile(filepath.Join(dir, "down", "data.jsonl"), []byte(rows.String()), 0o644)
	_, srv = serve(t, Config{Workspace: dir})
	down = startRun(t, srv, `{"benchmark": "down/benchmark.yaml"}`)
	fine = startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	waitStatus(t, srv, down, store.Completed)
	waitStatus(t, srv, fine, store.Completed)
	return srv, down, fine
}

// TestRunHealth: a run in which every example is an execution error is failed
// infrastructure, with its most frequent code, message and count, on its page and in the
// listing; a run with a few errors is not failed.
func TestRunHealth(t *testing.T) {
	srv, down, fine := downAndFine(t)

	h := getRun(t, srv, down).Health
	if h == nil || !h.Failed || h.Code != "adapter_error" || h.Count != 5 || h.Examples != 5 || !strings.Contains(h.Message, "cannot read fail-") {
		t.Fatalf("health of a run of execution errors only: %+v", h)
	}
	if s := h.Sentence(); !strings.HasPrefix(s, "5 of 5 examples: adapter_error: ") {
		t.Errorf("sentence %q", s)
	}
	h = getRun(t, srv, fine).Health
	if h == nil || h.Failed || h.Examples != slowExamples || h.Code != "adapter_error" || h.Count != slowExamples/4 {
		t.Errorf("health of a run with a few errors: %+v", h)
	}
	var list api.Runs
	decode(t, srv, "GET", api.RunsPath, "", http.StatusOK, &list)
	for _, r := range list.Runs {
		switch {
		case r.ID == down && (r.Health == nil || !r.Health.Failed || r.Health.Code != "adapter_error"):
			t.Errorf("listing: the failed run's health %+v", r.Health)
		case r.ID == fine && (r.Health == nil || r.Health.Failed || r.Health.Code != ""):
			t.Errorf("listing: the fine run's health %+v (its top error is for its own page)", r.Health)
		}
	}
}

// forgetRows makes run id of workspace dir a run stored before the store recorded its
// examples' rows (migration 5): its pages read them from the dataset, while it is the
// one the run took.
func forgetRows(t *testing.T, dir, id string) {
	t.Helper()
	db, err := sql.Open("sqlite", store.Path(dir)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE results SET example = NULL WHERE run_id = ?`, id); err != nil {
		t.Fatal(err)
	}
}

// TestRecordedRowsShown: a run that recorded its rows shows them on its pages and in its
// examples' detail as it took them, whatever its dataset became since; a run that did
// not (forgetRows) shows none once its dataset changed, and says why.
func TestRecordedRowsShown(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	setFile(t, filepath.Join(dir, "data", "invoices.jsonl"), `{"input": {"image": "x"}, "expected": {}}`+"\n", time.Hour)
	var page api.ResultPage
	decode(t, srv, "GET", api.RunPath(id)+"/results?limit=3", "", http.StatusOK, &page)
	var d api.ExampleDetail
	decode(t, srv, "GET", api.ExamplePath(id, 0), "", http.StatusOK, &d)
	if len(page.Results) != 3 || !strings.Contains(string(page.Results[0].Expected), "F-001") || page.RowsNote != "" ||
		!strings.Contains(string(d.Expected), "F-001") || !strings.Contains(string(d.Input), "invoice-001.png") {
		t.Fatalf("a run that recorded its rows, its dataset changed: page %+v, note %q; detail %s %s", page.Results, page.RowsNote, d.Input, d.Expected)
	}
	forgetRows(t, dir, id)
	page, d = api.ResultPage{}, api.ExampleDetail{} // decoding into them would keep what the JSON leaves out
	decode(t, srv, "GET", api.RunPath(id)+"/results?limit=3", "", http.StatusOK, &page)
	decode(t, srv, "GET", api.ExamplePath(id, 0), "", http.StatusOK, &d)
	if page.Results[0].Input != nil || page.RowsNote == "" || d.Input != nil {
		t.Errorf("a run without rows, its dataset changed: input %s, note %q; detail %s", page.Results[0].Input, page.RowsNote, d.Input)
	}
}

// TestExportFiltered: an export honours the results filter and carries each result's
// input and expected output beside its prediction: JSONL members, CSV columns of the
// program's leaves in declaration order. after and limit are for pages.
func TestExportFiltered(t *testing.T) {
	dir, _ := mediaWorkspace(t)
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "media/benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	var valid api.ResultPage
	decode(t, srv, "GET", api.ResultsPath(id, url.Values{"status": {"valid"}}), "", http.StatusOK, &valid)
	if len(valid.Results) == 0 || len(valid.Results) == 4 {
		t.Fatalf("%d valid results: the filter shows nothing", len(valid.Results))
	}
	_, body := export(t, srv, id, "csv&status=valid")
	lines := strings.Split(strings.TrimSpace(body), "\n")
	head := "index,status,score,contribution,error_code,error_path,prediction,input.image,input.sound,input.doc,expected.label,expected.drawing,prediction.label,prediction.drawing"
	if lines[0] != head || len(lines) != 1+len(valid.Results) || !strings.Contains(lines[1], "../files/x0.png") {
		t.Errorf("csv of the valid results:\n%s\nwant the head %s and %d rows", body, head, len(valid.Results))
	}
	_, body = export(t, srv, id, "jsonl&code=invalid_enum")
	var res struct {
		Index    int
		Input    map[string]string
		Expected map[string]string
	}
	lines = strings.Split(strings.TrimSpace(body), "\n")
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &res) != nil || res.Index != 2 || res.Input["image"] != "../files/x2.png" || res.Expected["label"] != "cat" {
		t.Errorf("jsonl of code=invalid_enum: %s", body)
	}
	if _, body = export(t, srv, id, "jsonl&q=no+such+text"); body != "" {
		t.Errorf("an export of nothing: %q", body)
	}
	for _, q := range []string{"&after=0", "&limit=1", "&status=bad", "&wrong=nope"} {
		if r := call(t, srv, "GET", api.RunPath(id)+"/results?format=jsonl"+q, ""); r.status != http.StatusBadRequest {
			t.Errorf("export %s: %d %s", q, r.status, r.body)
		}
	}
}
