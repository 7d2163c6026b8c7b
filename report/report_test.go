package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
)

// program is an invoice-like program: a text and an image in, a string and an enum out.
var program = ir.Program{
	Input: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "note", Type: ir.TypeString}, {Name: "scan", Type: ir.TypeImage}}},
	Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "vendor", Type: ir.TypeString},
		{Name: "kind", Type: ir.TypeEnum, Values: []string{"bill", "receipt", "quote"}}}},
}

// fixture is a run of n examples, failing the odd ones with prediction as the vendor.
func fixture(id string, n int, prediction string) Run {
	score := 0.5
	rep, _ := json.Marshal(api.Report{BenchmarkScore: &score, Summary: api.Summary{Examples: n, Valid: n - 2, InvalidOutputs: 1, ExecutionErrors: 1},
		Confidence: &api.Interval{Level: 0.95, Low: 0.4, High: 0.6, Method: "bootstrap"}})
	acc := 0.5
	r := Run{
		Run: api.Run{ID: id, Benchmark: "invoices/benchmark.yaml", BenchmarkHash: "sha256:" + strings.Repeat("ab", 32), DatasetDigest: "sha256:" + strings.Repeat("cd", 32),
			IRHash: "sha256:" + strings.Repeat("ef", 32), Status: "completed", System: &api.System{Label: "sys-" + id, Hash: "sha256:" + strings.Repeat("01", 32)}, Report: rep},
		Charts: api.Charts{Summary: api.Summary{Examples: n, Valid: n - 2, InvalidOutputs: 1, ExecutionErrors: 1},
			Histogram:  []int{n / 4, 0, 0, 0, 0, n / 4, 0, 0, 0, 0, n/2 - 2},
			Dimensions: []api.Dimension{{Path: []string{"vendor"}, Weight: 1, Correct: n / 2, Valid: n - 2, Accuracy: &acc}, {Path: []string{"kind"}, Weight: 1, Accuracy: &acc}},
			Confusion:  []api.Confusion{matrix([]string{"kind"}, []string{"bill", "receipt", "quote"}, [][]int{{3, 1, 0}, {0, 2, 0}, {1, 0, 0}})}},
		Program:      program,
		FailingTotal: n / 2,
	}
	for i := 1; i < n && len(r.Failing) < DefaultExamples; i += 2 {
		pred, _ := json.Marshal(map[string]string{"kind": "bill", "vendor": prediction})
		s := 0.5
		r.Failing = append(r.Failing, api.Result{Index: i, Status: "valid", Score: &s, Contribution: 0.5, Prediction: pred,
			Input:       json.RawMessage(`{"note": "invoice ` + fmt.Sprint(i) + `", "scan": "images/inv-` + fmt.Sprint(i) + `.png"}`),
			Expected:    json.RawMessage(`{"vendor": "ACME", "kind": "bill"}`),
			FieldScores: []api.FieldScore{{Path: []string{"vendor"}, Score: 0, Weight: 1}, {Path: []string{"kind"}, Score: 1, Weight: 1}}})
	}
	return r
}

// matrix is the confusion matrix of the enum of values at path whose cells[i][j] count
// the examples expected values[i] and predicted values[j], as the store answers it.
func matrix(path, values []string, cells [][]int) api.Confusion {
	counts := map[[2]string]int{}
	for i, row := range cells {
		for j, n := range row {
			counts[[2]string{values[i], values[j]}] = n
		}
	}
	return api.FoldConfusion(path, values, counts)
}

func write(t testing.TB, r Report) string {
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// external finds anything that would make a browser fetch: a URL scheme, an attribute
// naming a resource, a CSS url() or import, a script.
var external = regexp.MustCompile(`(?i)https?:|//[a-z0-9.-]+\.[a-z]{2,}/|\bsrc=|<link|<script|url\(|@import|xmlns`)

// TestReportSelfContained: the report names nothing outside itself, whatever a system
// answered: a prediction that is markup stays text, a URL in it is text, not a link.
func TestReportSelfContained(t *testing.T) {
	attack := `</script><img src=x onerror=alert(1)><a href="https://evil.example/">x</a>`
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "invoices/benchmark.yaml", BenchmarkHash: "sha256:ab", Runs: []Run{fixture("R1", 40, attack)}}}})
	if strings.Contains(html, "<img") || strings.Contains(html, "<a href=\"https") || strings.Contains(html, "onerror=alert(1)>") {
		t.Fatalf("a prediction's markup is markup in the report")
	}
	if !strings.Contains(html, `&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;`) {
		t.Errorf("the prediction is not shown as escaped text")
	}
	clean := strings.ReplaceAll(html, `https://evil.example/`, "") // the attack's own text, escaped
	clean = strings.ReplaceAll(clean, `&lt;img src=x onerror`, "") // ditto
	clean = strings.ReplaceAll(clean, `href=&#34;https:`, "")      // ditto, as JSON escapes it
	if m := external.FindAllString(clean, 5); len(m) > 0 {
		t.Errorf("the report names something outside itself: %q", m)
	}
	for _, href := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(href[1], "#") {
			t.Errorf("a link out of the file: %q", href[1])
		}
	}
	for _, want := range []string{`data-score>0.5000<`, `data-count="valid">38 `, `data-count="execution_error">1 `, `sha256:` + strings.Repeat("cd", 32),
		`images/inv-1.png`, `(a file, relative to the dataset)`, `aria-label="confusion matrix of kind"`, `aria-label="score histogram"`,
		`Failing examples (20)<`} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// TestReportFieldsInDeclarationOrder: expected and prediction line up by field in the
// program's order (vendor, kind), not in either value's key order (kind first).
func TestReportFieldsInDeclarationOrder(t *testing.T) {
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{fixture("R1", 4, "Acme Ltd")}}}})
	i, j := strings.Index(html, "<td>vendor</td>"), strings.Index(html, "<td>kind</td>")
	if i < 0 || j < 0 || i > j {
		t.Fatalf("vendor at %d, kind at %d", i, j)
	}
	if !strings.Contains(html, `<td class="bad">✗</td><td>vendor</td><td class="v">&#34;ACME&#34;</td><td class="v">&#34;Acme Ltd&#34;</td>`) {
		t.Errorf("the vendor row is not expected beside prediction with ✗")
	}
}

// TestReportSections: runs of two benchmarks get a section each and the note that they
// are not ranked together; a health that failed shows its banner.
func TestReportSections(t *testing.T) {
	a, b := fixture("R1", 4, "x"), fixture("R2", 4, "y")
	b.Health = api.Health{Failed: true, Code: "provider_error", Message: "cannot reach http://127.0.0.1:11434 — is the server running?", Count: 4, Examples: 4}
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "a.yaml", Runs: []Run{a}}, {Benchmark: "b.yaml", Runs: []Run{b}}}})
	if strings.Count(html, `<section class="benchmark"`) != 2 || !strings.Contains(html, `id="mixed"`) {
		t.Errorf("two benchmarks: no two sections with the note")
	}
	if !strings.Contains(html, "Failed infrastructure, not a score: 4 of 4 examples: provider_error: cannot reach http://127.0.0.1:11434 — is the server running?") {
		t.Errorf("no health banner")
	}
	one := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "a.yaml", Runs: []Run{a}}}})
	if strings.Contains(one, `id="mixed"`) {
		t.Errorf("one benchmark said to be several")
	}
}

// TestReportSize: 10 runs of 10,000 examples each, the default 20 failing examples listed
// with values near the cap, stay under 2 MB.
func TestReportSize(t *testing.T) {
	var runs []Run
	for i := range 10 {
		runs = append(runs, fixture(fmt.Sprint("R", i), 10000, strings.Repeat("long answer ", 150)))
	}
	var entries []api.LeaderboardEntry
	for i, r := range runs {
		entries = append(entries, api.LeaderboardEntry{Rank: i + 1, System: r.Run.System.Label, Run: r.Run.ID, Examples: 10000})
	}
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: runs, Boards: []api.Leaderboard{{Entries: entries}}}}})
	t.Logf("report of 10 runs x 10,000 examples, %d failing examples listed: %d bytes", DefaultExamples*10, len(html))
	if len(html) >= 2<<20 {
		t.Errorf("%d bytes, over 2 MB", len(html))
	}
	if strings.Count(html, `class="example"`) != 200 {
		t.Errorf("%d examples listed, want 200", strings.Count(html, `class="example"`))
	}
}

// TestClip: a value over MaxValue is cut at a character boundary, saying how much is left.
func TestClip(t *testing.T) {
	s := strings.Repeat("é", MaxValue) // 2 bytes each
	c := clip(s)
	if !strings.HasPrefix(c, strings.Repeat("é", MaxValue/2)+"… (") || !strings.Contains(c, fmt.Sprintf("(%d more bytes)", MaxValue)) {
		t.Errorf("clip: %q", c[len(c)-30:])
	}
}

// TestReportCost: a priced run's report shows its cost, what of it was replayed from the
// response cache, its cache's hits and misses, and each example's cost and cached mark; a
// run without them shows none of it.
func TestReportCost(t *testing.T) {
	cost, cached, each, yes := 0.0066, 0.0044, 0.0022, true
	r := fixture("r1", 6, "ACME")
	score := 0.5
	rep, _ := json.Marshal(api.Report{BenchmarkScore: &score, Summary: api.Summary{Examples: 6, Valid: 4, InvalidOutputs: 1, ExecutionErrors: 1},
		Usage: &api.Usage{Examples: 3, InputTokens: 3000, OutputTokens: 600, CostUSD: &cost, PricedExamples: 3, CachedCostUSD: &cached},
		Cache: &api.CacheCounts{Hits: 2, Misses: 1}})
	r.Run.Report = rep
	r.Failing[0].Usage = &api.ExampleUsage{InputTokens: 1000, OutputTokens: 200, CostUSD: &each, Cached: &yes}
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "invoices/benchmark.yaml", Runs: []Run{r}}}})
	for _, want := range []string{
		`<td data-cost>$0.0066 (3 examples priced; $0.0044 of it replayed from the response cache, not paid again)</td>`,
		`<td data-cache>2 hits, 1 misses</td>`,
		`1000+200 tokens, 0 ms, $0.0022 · <span data-cached>cached</span>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	plain := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "invoices/benchmark.yaml", Runs: []Run{fixture("r2", 6, "ACME")}}}})
	for _, absent := range []string{"data-cost", "data-cache", "data-cached"} {
		if strings.Contains(plain, absent) {
			t.Errorf("a run without cost or cache shows %s", absent)
		}
	}
}
