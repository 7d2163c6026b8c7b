package report

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
)

// Report is what one HTML file shows: a section per benchmark, in the order given.
type Report struct {
	Sections []Section
	// Examples is how many failing examples each run lists at most (the CLI's --examples;
	// 0 lists none).
	Examples int
}

// Section is the runs of one benchmark (one benchmark hash), with the leaderboards of the
// datasets several of them took. Runs of different benchmarks are never ranked together.
type Section struct {
	Benchmark     string // the file, as the store names it
	BenchmarkHash string
	Runs          []Run
	Boards        []api.Leaderboard
}

// Run is one stored run: its record (identities, status, report), what its charts draw,
// its program (fields in declaration order) and its first failing examples.
type Run struct {
	Run     api.Run
	Charts  api.Charts
	Health  api.Health
	Program ir.Program
	// Failing are the first failing examples (not valid, or scoring below 1), in index
	// order, each with its input and expected output when the run recorded them.
	Failing []api.Result
	// FailingTotal is how many examples failed in all (Failing has at most Report.Examples).
	FailingTotal int
}

// DefaultExamples is how many failing examples a run lists by default.
const DefaultExamples = 20

// MaxValue bounds each value the report shows (an input, an expected value, a prediction,
// a message): a report stays small whatever a system answered; the export has it whole.
const MaxValue = 2000

// MaxConfusionValues bounds the enum values a confusion matrix draws: a matrix of more is
// a page of cells no one reads, and of size quadratic in them.
const MaxConfusionValues = 24

// Write writes r as one self-contained HTML document: inline CSS and SVG, no script, no
// URL of anything outside the file. Every value is escaped by html/template, so a
// prediction is always text.
func Write(w io.Writer, r Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := page.Execute(bw, view(r)); err != nil {
		return err
	}
	return bw.Flush()
}

// pageView is what the template reads.
type pageView struct {
	Title    string
	Sections []sectionView
	Mixed    bool // runs of several benchmarks: no ranking across them
}

type sectionView struct {
	Section
	Anchor string
	Runs   []runView
}

type runView struct {
	Run
	Anchor      string
	Label       string
	Score       string
	Interval    string
	Rep         *api.Report
	Status      []statusView
	StatusBar   []rect
	Histogram   chart
	Dimensions  []dimensionView
	Confusion   []confusionView
	Examples    []exampleView
	MoreFailing int
	MoreText    string // "N more failing examples are not listed"
}

type statusView struct {
	Name  string
	Count int
	Class string
}

type exampleView struct {
	Index    int
	Status   string
	Score    string
	Inputs   []Field
	Fields   []Field
	Error    *api.ResultError
	Clipped  bool
	NoInput  bool
	Usage    *api.ExampleUsage
	Artifact map[string]bool // input values that are artifact paths (text only)
}

type dimensionView struct {
	Path     string
	Accuracy string
	Width    float64
	Correct  int
	Valid    int
	Weight   float64
}

func view(r Report) pageView {
	pv := pageView{Title: "Benchy report", Mixed: len(r.Sections) > 1}
	var names []string
	for i, s := range r.Sections {
		sv := sectionView{Section: s, Anchor: fmt.Sprintf("b%d", i)}
		for j, run := range s.Runs {
			sv.Runs = append(sv.Runs, runOf(run, fmt.Sprintf("b%dr%d", i, j), r.Examples))
		}
		pv.Sections = append(pv.Sections, sv)
		names = append(names, s.Benchmark)
	}
	if len(names) > 0 {
		pv.Title = "Benchy report: " + strings.Join(names, ", ")
	}
	return pv
}

func runOf(r Run, anchor string, n int) runView {
	v := runView{Run: r, Anchor: anchor, Label: "-", Score: "-", Interval: "", Rep: r.Run.DecodeReport()}
	if r.Run.System != nil && r.Run.System.Label != "" {
		v.Label = r.Run.System.Label
	}
	if v.Rep != nil && v.Rep.BenchmarkScore != nil {
		v.Score = fmt.Sprintf("%.4f", *v.Rep.BenchmarkScore)
		if c := v.Rep.Confidence; c != nil {
			v.Interval = fmt.Sprintf("[%.4f, %.4f] (%.0f%%, %s)", c.Low, c.High, c.Level*100, c.Method)
		}
	}
	s := r.Charts.Summary
	v.Status = []statusView{{"valid", s.Valid, "valid"}, {"invalid_output", s.InvalidOutputs, "invalid"}, {"execution_error", s.ExecutionErrors, "error"}}
	v.StatusBar = statusBar(s)
	v.Histogram = histogram(r.Charts.Histogram)
	for _, d := range r.Charts.Dimensions {
		dv := dimensionView{Path: api.DimensionKey(d.Path), Accuracy: "-", Correct: d.Correct, Valid: d.Valid, Weight: d.Weight}
		if d.Accuracy != nil {
			dv.Accuracy = fmt.Sprintf("%.1f%%", *d.Accuracy*100) // as the web's results page shows it
			dv.Width = *d.Accuracy * 100
		}
		v.Dimensions = append(v.Dimensions, dv)
	}
	for _, c := range r.Charts.Confusion {
		if !r.Health.Failed && counted(c) { // a run that never answered has only zeros to draw
			v.Confusion = append(v.Confusion, confusionOf(c))
		}
	}
	for i, res := range r.Failing {
		if i >= n {
			break
		}
		v.Examples = append(v.Examples, exampleOf(r.Program, res))
	}
	v.MoreFailing = max(r.FailingTotal-len(v.Examples), 0)
	v.MoreText = fmt.Sprintf("%d more failing examples are not listed", v.MoreFailing)
	if v.MoreFailing == 1 {
		v.MoreText = "1 more failing example is not listed"
	}
	return v
}

// counted tells whether a confusion matrix counts any example.
func counted(c api.Confusion) bool {
	for _, row := range c.Cells {
		for _, k := range row {
			if k > 0 {
				return true
			}
		}
	}
	return false
}

func exampleOf(p ir.Program, res api.Result) exampleView {
	ev := exampleView{Index: res.Index, Status: res.Status, Score: "-", Error: res.Error, Clipped: res.Clipped, Usage: res.Usage,
		NoInput: len(res.Input) == 0, Artifact: map[string]bool{}}
	if res.Score != nil {
		ev.Score = fmt.Sprintf("%.4f", *res.Score)
	}
	ev.Inputs = clipFields(Inputs(p.Input, res.Input))
	for _, leaf := range p.Input.Leaves() {
		switch leaf.Field.Type {
		case ir.TypeImage, ir.TypeAudio, ir.TypeDocument:
			ev.Artifact[api.DimensionKey(leaf.Path)] = true
		}
	}
	ev.Fields = clipFields(Align(p.Output, res.Expected, res.Prediction, res.FieldScores))
	if ev.Error != nil {
		e := *ev.Error
		e.Message = clip(e.Message)
		ev.Error = &e
	}
	return ev
}

func clipFields(fs []Field) []Field {
	for i := range fs {
		fs[i].Expected, fs[i].Predicted = clip(fs[i].Expected), clip(fs[i].Predicted)
	}
	return fs
}

// clip shortens s to MaxValue bytes at a character boundary, marking the cut.
func clip(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	cut := MaxValue
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + fmt.Sprint(len(s)-cut) + " more bytes)"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// key is a field's path as the page shows it.
func key(path []string) string { return api.DimensionKey(path) }

var funcs = template.FuncMap{
	"key": key,
	"pct": func(k, n int) string {
		if n == 0 {
			return "0%"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
	},
	"short": func(h string) string {
		h = strings.TrimPrefix(h, "sha256:")
		if len(h) > 12 {
			return h[:12]
		}
		return h
	},
	"f4":     func(v float64) string { return fmt.Sprintf("%.4f", v) },
	"usd":    func(v *float64) string { return fmt.Sprintf("$%.4f", *v) }, // as benchy run's summary
	"deref":  func(b *bool) bool { return *b },
	"versus": versus,
	"when":   when,
	"opt": func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.4f", *p)
	},
	"given": func(runs []runView, id string) bool {
		for _, r := range runs {
			if r.Run.Run.ID == id {
				return true
			}
		}
		return false
	},
}
