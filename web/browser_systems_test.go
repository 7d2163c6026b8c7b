package web_test

// Browser tests of issue 13's pages: one benchmark run against two AI-systems from the runs
// page, the leaderboard (filled from empty with one click), the compare page of two systems
// and its refusal of runs of different datasets, and the example grid. The two systems are
// web/testdata/label-adapter, bound twice: as it is, and with -wrong-every 3.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// systemsExamples is the size of the two-system benchmark's dataset.
const systemsExamples = 60

var labelAdapter = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(suite.dir, "label-adapter")
	cmd := exec.Command("go", "build", "-o", bin, "./web/testdata/label-adapter")
	dir, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the label adapter: %v\n%s", err, out)
	}
	return bin, nil
})

// systemsWorkspace writes a benchmark whose own AI-system is "labeller" and whose runtime
// file binds a second, "labeller-b", that gets every third example wrong.
func systemsWorkspace(t *testing.T) string {
	t.Helper()
	var data strings.Builder
	for i := range systemsExamples {
		text := strings.Repeat("a", 1+i%5)
		label := map[bool]string{true: "even", false: "odd"}[len(text)%2 == 0]
		if i%10 == 7 {
			label = map[string]string{"even": "odd", "odd": "even"}[label] // wrong for both systems, now and then
		}
		fmt.Fprintf(&data, `{"input":{"text":"%s"},"expected":{"label":"%s"}}`+"\n", text, label)
	}
	return labelWorkspace(t, data.String(), "bindings:\n  labeller:\n    command: [./label-adapter]\n  labeller-b:\n    command: [./label-adapter, -wrong-every, \"3\"]\n")
}

// labelWorkspace is a new folder with the even/odd benchmark of web/testdata/label-adapter
// (its own AI-system "labeller"), rows as its data/rows.jsonl, runtime as its
// benchy.runtime.yaml and the adapter, built once per test process, as ./label-adapter.
func labelWorkspace(t *testing.T, rows, runtime string) string {
	t.Helper()
	bin, err := labelAdapter()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"data/rows.jsonl": rows,
		"benchmark.yaml": `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input:
    text: string
  output:
    label: {enum: [even, odd]}
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./data/rows.jsonl
ai-system: {type: external, id: labeller}
`,
		"benchy.runtime.yaml": runtime,
	})
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "label-adapter"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// text is the text of the element matching selector, "" when there is none.
func (b *browser) text(selector string) string {
	b.t.Helper()
	return eval[string](b, `(document.querySelector(`+js(selector)+`) || {textContent: ""}).textContent.trim()`)
}

// clickJS clicks the element matching selector through its own click(), as a user's click
// would fire it, without aiming at coordinates taken while the page still lays out.
func (b *browser) clickJS(selector string) {
	b.t.Helper()
	poll[bool](b, selector+" to be there and enabled", `(() => { const e = document.querySelector(`+js(selector)+`); return e !== null && !e.disabled; })()`, 10*time.Second, "")
	eval[bool](b, `(document.querySelector(`+js(selector)+`).click(), true)`)
}

const cardsJS = `JSON.stringify([...document.querySelectorAll("#live-cards .live-card")].map(c => c.dataset.system + ":" + c.dataset.status))`

// TestBrowserLaunchSystems picks a second AI-system on the runs page and runs both with one
// click: two progress cards side by side, both complete. Then a byte of the dataset changes,
// the benchmark runs again, and the compare page says why the old and the new run cannot be
// compared.
func TestBrowserLaunchSystems(t *testing.T) {
	requireBrowser(t)
	dir := systemsWorkspace(t)
	srv := startServer(t, dir)
	b := newBrowser(t, 60*time.Second)
	b.ignoreConsole("status of 409") // the refused comparison, shown on the page
	b.ignoreConsole("status of 422")
	b.open(srv.URL("/runs?benchmark=benchmark.yaml"))
	poll[bool](b, "the second binding to be offered", `document.querySelector('#systems input.system-binding[data-name="labeller-b"]') !== null`, 10*time.Second, "")
	if got := b.text("#start"); got != "Start run" {
		t.Errorf("#start reads %q with only the own system checked", got)
	}
	// Nothing checked: nothing to start.
	b.clickJS("#system-own")
	poll[bool](b, "#start to be disabled with no system checked", `document.getElementById("start").disabled`, 5*time.Second, "")
	b.clickJS("#system-own")
	b.clickJS(`#systems input.system-binding[data-name="labeller-b"]`)
	poll[bool](b, "#start to say it runs 2 systems", `document.getElementById("start").textContent.trim() === "Run 2 systems"`, 5*time.Second,
		`document.getElementById("start").textContent`)
	b.screenshot("runs-systems-picked")
	start := time.Now()
	b.clickJS("#start")
	poll[bool](b, "two progress cards", `document.querySelectorAll("#live-cards .live-card").length === 2`, 10*time.Second, cardsJS)
	cards := poll[string](b, "both runs to complete", `(() => {
		const cs = [...document.querySelectorAll("#live-cards .live-card")];
		return cs.length === 2 && cs.every(c => c.dataset.status === "completed") && `+cardsJS+`;
	})()`, 30*time.Second, cardsJS)
	if cards != `["labeller:completed","labeller-b:completed"]` {
		t.Errorf("cards %s, want labeller and labeller-b, completed, in the order checked", cards)
	}
	scores := eval[string](b, `[...document.querySelectorAll("#live-cards .live-score")].map(s => s.dataset.value).join(",")`)
	t.Logf("two systems launched with one click and completed in %.1f s; cards %s, scores %s", time.Since(start).Seconds(), cards, scores)
	if strings.Count(scores, ".") != 2 {
		t.Errorf("scores %q, want two", scores)
	}
	b.screenshotWidths("runs-systems", "#live-cards .live-system", "#live-cards .live-pace", "#runs th", "#runs td.run-system")

	// The dataset changes by one byte; the benchmark runs again; the old and the new run of
	// the own system took different exams.
	var list struct {
		Runs []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			System struct {
				Label string `json:"label"`
			} `json:"system"`
		} `json:"runs"`
	}
	srv.getJSON(t, "/api/runs?benchmark=benchmark.yaml", &list)
	old := ""
	for _, r := range list.Runs {
		if r.System.Label == "labeller" && r.Status == "completed" {
			old = r.ID
		}
	}
	if old == "" {
		t.Fatalf("no completed run of labeller: %+v", list.Runs)
	}
	rows := filepath.Join(dir, "data", "rows.jsonl")
	data, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rows, []byte(strings.Replace(string(data), `"a"`, `"b"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var started struct {
		ID string `json:"id"`
	}
	srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml"}`, &started)
	waitRun(t, srv, started.ID)
	b.open(srv.URL("/compare?a=" + old + "&b=" + started.ID))
	why := poll[string](b, "the refusal", `(() => {
		const e = document.getElementById("compare-error"), w = document.getElementById("compare-why");
		return e && e.dataset.code === "different_datasets" && w && w.textContent.includes("(A ") && w.textContent;
	})()`, 10*time.Second, `(document.getElementById("compare-page") || {textContent: ""}).textContent`)
	if !regexp.MustCompile(`^These runs took different datasets: the dataset changed between them \(A [0-9a-f]{12}, B [0-9a-f]{12}\)\.$`).MatchString(why) {
		t.Errorf("#compare-why %q", why)
	}
	if b.exists("#comparison") {
		t.Error("a comparison is shown beside the refusal")
	}
	poll[bool](b, "the page to be ready", `document.querySelector('#compare-page[data-ready="1"] #compare-a') !== null`, 10*time.Second, "")
	t.Logf("compare of two datasets: %s", why)
	b.screenshot("compare-refused")

	// The board of the benchmark now has two datasets to choose from, each counted.
	b.open(srv.URL("/leaderboard?benchmark=benchmark.yaml"))
	opts := poll[string](b, "the dataset select", `(() => {
		const s = document.getElementById("dataset");
		return s && JSON.stringify([...s.options].map(o => o.textContent));
	})()`, 10*time.Second, `(document.getElementById("board-head") || {textContent: ""}).textContent`)
	if !regexp.MustCompile(`^\["[0-9a-f]{12} · 1 system ran","[0-9a-f]{12} · 2 systems ran"\]$`).MatchString(opts) {
		t.Errorf("dataset options %s, want the new dataset's 1 system, then the old one's 2", opts)
	}
	if got := b.text(`label[for="dataset"]`); got != "dataset" {
		t.Errorf("the select's label reads %q", got)
	}
	b.screenshotWidths("leaderboard-datasets", "#board-head .ident")
}

// TestBrowserResumeFollowed cancels a run of a system chosen by name and resumes it on the
// runs page: the panel follows the resumed run to its end. The page follows runs through its
// own context since go-app drops what is dispatched through a context whose element is gone
// (the leaderboard's launched runs stayed "loading" so); here the Resume button's place is
// taken by another button, which go-app updates in place, so this passed before too.
func TestBrowserResumeFollowed(t *testing.T) {
	requireBrowser(t)
	dir := systemsWorkspace(t)
	f, err := os.OpenFile(filepath.Join(dir, "benchy.runtime.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The run is held until the test lets it end: under load the page may take longer to
	// show it than a slow adapter takes to finish (the run was seen completed, never running).
	hold := filepath.Join(t.TempDir(), "hold")
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "  labeller-slow:\n    command: [./label-adapter, -delay, 5ms, -hold, %q]\n", hold)
	f.Close()
	srv := startServer(t, dir)
	var started struct {
		ID string `json:"id"`
	}
	srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml", "concurrency": 1, "systems": [{"system": "labeller-slow"}]}`, &started)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/runs?benchmark=benchmark.yaml&run=" + started.ID))
	status := `(document.getElementById("run-status") || {textContent: ""}).textContent.trim()`
	poll[bool](b, "the run to be running", status+` === "running"`, 10*time.Second, status)
	b.clickJS("#cancel")
	poll[bool](b, "the run to be cancelled", status+` === "cancelled"`, 10*time.Second, status)
	b.clickJS("#resume")
	poll[bool](b, "the resumed run to be running", status+` === "running"`, 10*time.Second, status)
	if err := os.Remove(hold); err != nil {
		t.Fatal(err)
	}
	poll[bool](b, "the resumed run to be followed to its end", status+` === "completed"`, 20*time.Second, status)
	if done, total := b.text("#run-done"), b.text("#run-total"); done != "60" || total != "60" {
		t.Errorf("the resumed run shows %s / %s examples, want 60 / 60", done, total)
	}
}

// boardOneLine are the parts of the leaderboard that must not wrap at 1024 px: they did
// (intervals, headers, run ids split as "run …" over "41PBCBKV30", long labels on three lines).
var boardOneLine = []string{"#board th", "#board .entry-interval", "#board .run-link", "#board .delta-value", "#board .delta-interval",
	"#board td.counts", "#board .system-name", "#heatmap th .system-name", "#board-head .ident", "#ranking .toolbar h2"}

// TestBrowserLeaderboard opens an empty leaderboard, fills it with "Run every system" (the
// benchmark's own and the runtime file's other binding), and reads it: both ranked with
// intervals, the leader's difference and its words, the heatmap; two rows picked open the
// compare page of the two systems; the example grid's "systems disagree" filter keeps only
// rows where they do.
func TestBrowserLeaderboard(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, systemsWorkspace(t))
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/leaderboard"))
	poll[bool](b, "the list of leaderboards", `document.querySelector('#board-list a.board-link') !== null`, 10*time.Second, "")
	b.clickJS("#board-list a.board-link")
	plan := poll[string](b, "the empty board's button", `document.getElementById("run-every") && !document.getElementById("run-every").disabled && document.getElementById("run-every-plan").textContent`, 10*time.Second,
		`(document.getElementById("leaderboard-page") || {textContent: ""}).textContent`)
	if plan != "runs labeller, labeller-b, one run each" {
		t.Errorf("the plan reads %q", plan)
	}
	b.screenshot("leaderboard-empty")
	start := time.Now()
	b.clickJS("#run-every")
	poll[bool](b, "the launched runs' cards", `document.querySelectorAll("#launch-cards .live-card").length === 2`, 10*time.Second, "")
	entries := poll[string](b, "the board with both systems", `(() => {
		const rs = [...document.querySelectorAll("#board tr.entry")];
		return rs.length === 2 && JSON.stringify(rs.map(r => r.dataset.rank + ":" + r.dataset.system));
	})()`, 30*time.Second, `(document.getElementById("leaderboard-page") || {textContent: ""}).textContent`)
	t.Logf("board filled from empty with one click in %.1f s: %s", time.Since(start).Seconds(), entries)
	if entries != `["1:labeller","2:labeller-b"]` {
		t.Errorf("ranking %s, want labeller first (labeller-b gets every third example wrong)", entries)
	}
	for _, sel := range []string{"#board tr.entry .forest .point", "#board tr.entry .forest .whisker", "#board tr.entry .entry-interval"} {
		if n := b.count(sel); n != 2 {
			t.Errorf("%d of %s, want one per system", n, sel)
		}
	}
	if n := b.count("#board tr.entry .forest .leader-line"); n != 2 {
		t.Errorf("%d leader lines", n)
	}
	verdict := b.text(`#board tr.entry[data-rank="2"] .verdict`)
	if verdict != "significantly worse" && verdict != "not distinguishable" {
		t.Errorf("the second's verdict %q", verdict)
	}
	if got := b.text(`#board tr.entry[data-rank="1"] .verdict`); got != "leader" {
		t.Errorf("the leader's verdict %q", got)
	}
	heat := eval[string](b, `[...document.querySelectorAll("#heatmap td.heat")].map(c => c.textContent).join(",")`)
	if strings.Count(heat, "%") != 2 {
		t.Errorf("heatmap cells %q, want one per system (one dimension)", heat)
	}
	if len(b.text("#board-dataset")) != 12 || len(b.text("#board-benchmark-hash")) != 12 {
		t.Errorf("the board shows dataset %q and benchmark %q, want both short", b.text("#board-dataset"), b.text("#board-benchmark-hash"))
	}
	t.Logf("second: %s; heatmap %s", verdict, heat)
	b.screenshotWidths("leaderboard", boardOneLine...)

	b.clickJS(`#board tr.entry[data-rank="1"] input.pick`)
	b.clickJS(`#board tr.entry[data-rank="2"] input.pick`)
	b.clickJS("#board-compare")
	delta := poll[string](b, "the comparison of the two systems", `(() => { const d = document.getElementById("compare-delta"); return d && d.textContent; })()`, 10*time.Second,
		`(document.getElementById("compare-error") || {textContent: ""}).textContent`)
	if !strings.HasPrefix(delta, "-") {
		t.Errorf("labeller-b − labeller = %s, want a negative difference", delta)
	}
	t.Logf("compare labeller-b with labeller: %s %s", delta, b.text("#compare-ci"))
	b.screenshotWidths("compare-systems")

	b.open(srv.URL("/leaderboard/examples?benchmark=benchmark.yaml"))
	all := poll[int](b, "the grid's rows", `document.querySelectorAll("#grid tr.grid-row").length`, 10*time.Second, "")
	if all != 50 {
		t.Errorf("the first page has %d rows, want 50", all)
	}
	if n := b.count("#grid tr.grid-row td.cell .mark"); n != 2*all {
		t.Errorf("%d ✓/✗ marks, want one per cell (%d)", n, 2*all)
	}
	widths := `JSON.stringify([...document.querySelectorAll("#grid thead th")].map(th => Math.round(th.getBoundingClientRect().width)))`
	before := eval[string](b, widths)
	b.setControl("#grid-filter", "disagree")
	disagree := poll[int](b, "the rows where the systems disagree", `(() => {
		const rs = [...document.querySelectorAll("#grid tr.grid-row")];
		return new URL(location.href).searchParams.get("filter") === "disagree" && rs.length > 0 && rs.length < 50 &&
			rs.every(r => new Set([...r.querySelectorAll("td.cell")].map(c => c.dataset.right)).size === 2) && rs.length;
	})()`, 10*time.Second, `document.querySelectorAll("#grid tr.grid-row").length + " rows"`)
	t.Logf("grid: %d rows on the first page, %d where the systems disagree (%s)", all, disagree, b.text("#grid-info"))
	if after := eval[string](b, widths); after != before {
		t.Errorf("the grid's columns are %s px wide on the first page, %s on the filtered one: they should not move", before, after)
	}
	b.screenshotWidths("grid", "#grid th .system-name", "#grid th a", "#grid-info")
}

// longName is an AI-system label too long for a table's column.
const longName = "labeller-with-a-name-long-enough-to-be-clipped-v2"

// TestBrowserLaunchNotInstalled: on a machine without one system's program, "Run every
// system" runs the others and says which did not run and why. The server refuses a
// request whole when one of its systems cannot run (langdetect's binding without
// python3-langdetect, on a fresh machine), so the baseline, which needs nothing, did not
// run either and the board stayed empty. The runs page's launch does the same.
func TestBrowserLaunchNotInstalled(t *testing.T) {
	requireBrowser(t)
	dir := systemsWorkspace(t)
	testkit.WriteFiles(t, dir, map[string]string{
		"benchy.runtime.yaml": "bindings:\n  labeller:\n    command: [./label-adapter]\n  ghost:\n    command: [./no-such-adapter]\n" +
			"  " + longName + ":\n    command: [./label-adapter, -wrong-every, \"4\"]\n",
	})
	srv := startServer(t, dir)
	b := newBrowser(t, 60*time.Second)
	b.ignoreConsole("status of 422") // the refusal, which the page turns into its note
	b.open(srv.URL("/leaderboard?benchmark=benchmark.yaml"))
	plan := poll[string](b, "the empty board's button", `document.getElementById("run-every") && !document.getElementById("run-every").disabled && document.getElementById("run-every-plan").textContent`, 10*time.Second,
		`(document.getElementById("leaderboard-page") || {textContent: ""}).textContent`)
	if plan != "runs labeller, ghost, "+longName+", one run each" {
		t.Errorf("the plan reads %q", plan)
	}
	b.clickJS("#run-every")
	entries := poll[string](b, "the board with the systems that can run", `(() => {
		const rs = [...document.querySelectorAll("#board tr.entry")];
		return rs.length > 0 && JSON.stringify(rs.map(r => r.dataset.system));
	})()`, 30*time.Second, `(document.getElementById("leaderboard-page") || {textContent: ""}).textContent`)
	if entries != `["labeller","`+longName+`"]` {
		t.Errorf("board %s, want labeller and %s", entries, longName)
	}
	note := b.text("#launch-not-run")
	if !strings.HasPrefix(note, "ghost was not run: its binding in benchy.runtime.yaml runs ") || !strings.Contains(note, "does not exist") || strings.Contains(note, "systems[") {
		t.Errorf("the note reads %q", note)
	}
	if b.exists("#launch-error") {
		t.Errorf("an error beside the note: %s", b.text("#launch-error"))
	}
	t.Logf("board %s; note: %s", entries, note)
	b.screenshotWidths("leaderboard-not-installed", boardOneLine...)
	// The long label ends in "…" at 1024 px, whole in its title.
	b.run(chromedp.EmulateViewport(1024, 900))
	clipped := eval[string](b, `(() => {
		const e = document.querySelector('#board tr.entry[data-rank="2"] .system-name');
		return e.scrollWidth > e.clientWidth ? e.title.split("\n")[0] : "not clipped";
	})()`)
	if clipped != longName {
		t.Errorf("the long label at 1024 px: %q, want it clipped with the whole in its title", clipped)
	}

	// Its results page names the three identities, in words.
	run := eval[string](b, `document.querySelector('#board tr.entry[data-rank="2"]').dataset.run`)
	b.open(srv.URL("/results?run=" + run))
	poll[bool](b, "the run's identities", `document.getElementById("run-system-hash") !== null`, 10*time.Second, "")
	for id, words := range map[string]string{
		"run-benchmark-hash": "benchmark hash: program, scoring and data path, without the AI-system",
		"run-dataset-digest": "dataset digest: the JSONL bytes and every artifact's",
		"run-system-hash":    "system hash: ",
		"run-ir-hash":        "IR hash: ",
	} {
		short := b.text("#" + id)
		title := eval[string](b, `document.getElementById(`+js(id)+`).title`)
		label := eval[string](b, `document.getElementById(`+js(id)+`).parentElement.textContent`)
		if len(short) != 12 || !strings.HasPrefix(title, words) || !strings.Contains(title, "\nsha256:"+short) ||
			!strings.HasPrefix(label, strings.SplitN(words, ":", 2)[0]+" ") {
			t.Errorf("#%s: %q (%q), title %q", id, short, label, title)
		}
	}
	if got := b.text("#run-system"); got != longName {
		t.Errorf("the results page names the AI-system %q", got)
	}
	b.screenshotWidths("results-identities", "#run-identities .ident", "#run-meta .nowrap")

	b.open(srv.URL("/runs?benchmark=benchmark.yaml"))
	b.clickJS(`#systems input.system-binding[data-name="ghost"]`)
	poll[bool](b, "#start to say it runs 2 systems", `document.getElementById("start").textContent.trim() === "Run 2 systems"`, 5*time.Second, "")
	b.clickJS("#start")
	followed := poll[string](b, "the run of the system that can run", `(() => {
		const n = document.getElementById("not-run"), s = document.getElementById("run-system");
		return n && !n.hidden && s && s.textContent.trim();
	})()`, 10*time.Second, `(document.getElementById("runs-page") || {textContent: ""}).textContent`)
	if followed != "labeller" || b.count("#live-cards .live-card") != 0 {
		t.Errorf("the page follows %q (%d cards), want labeller's run alone", followed, b.count("#live-cards .live-card"))
	}
	if note := b.text("#not-run"); !strings.HasPrefix(note, "ghost was not run: ") {
		t.Errorf("the runs page's note reads %q", note)
	}
	b.screenshot("runs-not-installed")
}
