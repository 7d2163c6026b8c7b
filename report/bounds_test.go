package report

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
)

// wideProgram is a program of n string fields in (i0 ...) and n out (f0 ...).
func wideProgram(n int) ir.Program {
	p := ir.Program{Input: ir.Field{Type: ir.TypeObject}, Output: ir.Field{Type: ir.TypeObject}}
	for i := range n {
		p.Input.Fields = append(p.Input.Fields, ir.Field{Name: fmt.Sprintf("i%d", i), Type: ir.TypeString})
		p.Output.Fields = append(p.Output.Fields, ir.Field{Name: fmt.Sprintf("f%d", i), Type: ir.TypeString})
	}
	return p
}

// wideRun is a run of the wide program of n fields with examples failing examples, each
// expecting value in every field and predicted wrong in those wrong says.
func wideRun(id string, n, examples int, value string, wrong func(field int) bool) Run {
	in, exp, pred := map[string]string{}, map[string]string{}, map[string]string{}
	var scores []api.FieldScore
	for i := range n {
		f := fmt.Sprintf("f%d", i)
		in[fmt.Sprintf("i%d", i)], exp[f], pred[f] = value, value, value
		s := 1.0
		if wrong(i) {
			pred[f], s = "wrong "+value, 0
		}
		scores = append(scores, api.FieldScore{Path: []string{f}, Score: s, Weight: 1})
	}
	inJSON, _ := json.Marshal(in)
	expJSON, _ := json.Marshal(exp)
	predJSON, _ := json.Marshal(pred)
	r := Run{Run: api.Run{ID: id, Status: "completed", System: &api.System{Label: "sys-" + id}},
		Charts:  api.Charts{Summary: api.Summary{Examples: examples, Valid: examples}, Histogram: make([]int, 11)},
		Program: wideProgram(n), FailingTotal: examples}
	for i := range examples {
		score := 0.5
		r.Failing = append(r.Failing, api.Result{Index: i, Status: "valid", Score: &score, Contribution: score,
			Input: inJSON, Expected: expJSON, Prediction: predJSON, FieldScores: scores})
	}
	return r
}

// TestReportFieldsPerExampleCapped: an example of a 2,000-field benchmark shows at most
// MaxFields fields of its output and of its input, the wrong ones first, and says how many
// more it has; an example of few fields shows them all, without the note.
func TestReportFieldsPerExampleCapped(t *testing.T) {
	wrong := func(i int) bool { return i >= 1500 && i < 1510 } // far past the first MaxFields
	html := write(t, Report{Examples: 1, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{wideRun("R1", 2000, 1, "v", wrong)}}}})
	outRows := strings.Count(html, `<tr><td class="`)
	inRows := len(regexp.MustCompile(`<tr><td>i\d+</td>`).FindAllString(html, -1))
	if outRows > MaxFields || inRows > MaxFields {
		t.Fatalf("an example shows %d output and %d input fields of 2000, want at most %d each", outRows, inRows, MaxFields)
	}
	for i := 1500; i < 1510; i++ {
		if !strings.Contains(html, fmt.Sprintf(`<td class="bad">✗</td><td>f%d</td>`, i)) {
			t.Errorf("wrong field f%d is not shown", i)
		}
	}
	if !strings.Contains(html, fmt.Sprintf("and %d more output fields", 2000-MaxFields)) || !strings.Contains(html, fmt.Sprintf("and %d more input fields", 2000-MaxFields)) {
		t.Errorf("no note of the fields not shown")
	}
	small := write(t, Report{Examples: 1, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{wideRun("R1", 3, 1, "v", wrong)}}}})
	if strings.Count(small, `<tr><td class="`) != 3 || strings.Contains(small, "more output fields") {
		t.Errorf("an example of 3 fields does not show exactly them")
	}
}

// TestReportExamplesCutAtByteBudget: the failing examples of 10 runs, 20 each of 50 fields
// near MaxValue (some 40 MB of HTML in all), stop at MaxExampleBytes with a note where
// they were cut; every run after says how many of its examples are not shown, and the
// report still closes its document.
func TestReportExamplesCutAtByteBudget(t *testing.T) {
	long := strings.Repeat("a long value ", MaxValue/13)
	var runs []Run
	for i := range 10 {
		runs = append(runs, wideRun(fmt.Sprint("R", i), 50, 20, long, func(int) bool { return true }))
	}
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: runs}}})
	if len(html) > MaxExampleBytes+1<<20 {
		t.Fatalf("the report is %d bytes, want at most %d (MaxExampleBytes of examples and 1 MiB of the rest)", len(html), MaxExampleBytes+1<<20)
	}
	shown := strings.Count(html, `<div class="example"`)
	cut := 0
	for _, m := range regexp.MustCompile(`data-cut="(\d+)"`).FindAllStringSubmatch(html, -1) {
		n, _ := strconv.Atoi(m[1])
		cut += n
	}
	if shown == 0 || shown+cut != 200 || !strings.Contains(html, "Cut here:") {
		t.Errorf("%d examples shown and %d said cut, want 200 in all with a cut note", shown, cut)
	}
	if strings.Count(html, `<article class="run"`) != 10 || !strings.HasSuffix(strings.TrimSpace(html), "</html>") {
		t.Errorf("a run or the document's end is missing after the cut")
	}
}

// TestReportWritesInBoundedMemory: writing the report of 8 runs of a 2,000-field
// benchmark, 20 failing examples each, holds under 32 MB more heap than its input at any
// moment it writes (it was every example's every field at once).
func TestReportWritesInBoundedMemory(t *testing.T) {
	var runs []Run
	for i := range 8 {
		runs = append(runs, wideRun(fmt.Sprint("R", i), 2000, 20, "a value", func(int) bool { return true }))
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w := &heapWatch{base: ms.HeapAlloc}
	if err := Write(w, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: runs}}}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes written, the heap at most %d bytes over its start", w.n, w.peak)
	if w.peak > 32<<20 {
		t.Errorf("the heap grew by %d bytes while the report was written, want under %d", w.peak, 32<<20)
	}
}

// heapWatch is a writer that records how far the heap grew over base at each write.
type heapWatch struct {
	base, peak uint64
	n          int
}

func (w *heapWatch) Write(p []byte) (int, error) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > w.base {
		w.peak = max(w.peak, ms.HeapAlloc-w.base)
	}
	w.n += len(p)
	return len(p), nil
}

// TestReportLoadsEachRunAsWritten: with Report.Load, each run is loaded when the writer
// reaches it, after the run before it is written whole, so one run is in memory at a time;
// once MaxExampleBytes of examples are written, a run is loaded without examples.
func TestReportLoadsEachRunAsWritten(t *testing.T) {
	long := strings.Repeat("a long value ", MaxValue/13)
	var buf strings.Builder
	var asked []int
	load := func(r *Run, n int) error {
		if i := len(asked); strings.Count(buf.String(), "</article>") != i {
			t.Errorf("run %d loaded when %d runs were written, want the %d before it", i, strings.Count(buf.String(), "</article>"), i)
		}
		asked = append(asked, n)
		*r = wideRun(r.Run.ID, 50, n, long, func(int) bool { return true })
		r.FailingTotal = 20
		return nil
	}
	var runs []Run
	for i := range 12 {
		runs = append(runs, Run{Run: api.Run{ID: fmt.Sprint("R", i)}})
	}
	w := &flushed{b: &buf}
	if err := Write(w, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: runs}}, Load: load}); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 12 || asked[0] != DefaultExamples || asked[11] != 0 {
		t.Errorf("runs loaded with %v examples, want 20 first and none once the examples were cut", asked)
	}
}

// flushed is a strings.Builder as a writer.
type flushed struct{ b *strings.Builder }

func (f *flushed) Write(p []byte) (int, error) { return f.b.Write(p) }

// TestReportChartsCapped: a run of 2,000 dimensions lists the MaxFields least accurate
// (in declaration order) and says how accurate the rest are at least; of 12 enum
// dimensions it draws MaxMatrices matrices and names the rest; an enum of 4,000 members
// is drawn as its most frequent members and one row and column of the others.
func TestReportChartsCapped(t *testing.T) {
	r := wideRun("R1", 3, 1, "v", func(int) bool { return true })
	for i := range 2000 {
		acc := 1 - float64(i%100)/1000 // f99, f199, ... (20 of them) the least accurate, then f98 ..., then f97 ...
		r.Charts.Dimensions = append(r.Charts.Dimensions, api.Dimension{Path: []string{fmt.Sprintf("f%d", i)}, Weight: 1, Accuracy: &acc})
	}
	values := make([]string, 4000)
	counts := map[[2]string]int{}
	for i := range values {
		values[i] = fmt.Sprintf("m%d", i)
	}
	for i, v := range values {
		counts[[2]string{v, values[(i+1)%len(values)]}] = 1 + i%7
	}
	for i := range 12 {
		r.Charts.Confusion = append(r.Charts.Confusion, api.FoldConfusion([]string{fmt.Sprintf("e%d", i)}, values, counts))
	}
	html := write(t, Report{Examples: 1, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{r}}}})
	rows := regexp.MustCompile(`<tr><td>(f\d+)</td><td>1</td>`).FindAllStringSubmatch(html, -1)
	if len(rows) != MaxFields || rows[0][1] != "f97" || rows[MaxFields-1][1] != "f1999" || !strings.Contains(html, "1950 more dimensions are not listed, each at least 90.3% accurate") {
		t.Errorf("%d dimension rows (%v ...), want the %d least accurate and a line for the rest", len(rows), rows[:min(len(rows), 3)], MaxFields)
	}
	if n := strings.Count(html, `aria-label="confusion matrix of`); n != MaxMatrices || !strings.Contains(html, "4 more enum dimensions have a confusion matrix not drawn here") {
		t.Errorf("%d matrices drawn of 12, want %d and a line for the rest", n, MaxMatrices)
	}
	side := api.MaxConfusionLabels + 1
	if n := strings.Count(html, `<g><rect class="cell`); n != MaxMatrices*side*side || !strings.Contains(html, "(3980 others)") {
		t.Errorf("%d cells drawn, want %d: %d×%d a matrix with the others", n, MaxMatrices*side*side, side, side)
	}
}
