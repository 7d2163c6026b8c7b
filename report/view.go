package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/api"
)

// The views are what the template reads: a run's record, charts and counts worded and
// measured for the page.

// pageView is what the head of the page reads: the title and a link to each run.
type pageView struct {
	Title     string
	Sections  []sectionView // those with a run linked
	Mixed     bool          // runs of several benchmarks: no ranking across them
	MoreLinks int           // the runs past MaxLinks, not linked
}

type sectionView struct {
	Section
	Anchor string
	Runs   []navView
}

// navView is a run as the page's links name it.
type navView struct {
	Anchor string
	Label  string
}

type runView struct {
	Run
	Anchor     string
	Label      string
	Score      string
	Interval   string
	Rep        *api.Report
	Status     []statusView
	StatusBar  []rect
	Histogram  chart
	Dimensions []dimensionView
	MoreDims   string // "N more dimensions, each at least P% accurate", past MaxFields
	Confusion  []confusionView
	MoreMatrix int    // the enum dimensions not drawn, past MaxMatrices
	Listed     int    // the failing examples it lists (unless the report is cut first)
	Sentence   string // its health's, cut at MaxValue (a message may be 1 MiB)
}

type statusView struct {
	Name  string
	Count int
	Class string
}

type dimensionView struct {
	Path     string
	Accuracy string
	Width    float64
	Correct  int
	Valid    int
	Weight   float64
}

// head is the page's title and links: each run's label, which its record has before it
// is loaded, for the first MaxLinks runs; the title names the first three benchmarks.
func head(r Report) pageView {
	pv := pageView{Title: "Benchy report", Mixed: len(r.Sections) > 1}
	var names []string
	links := 0
	for i, s := range r.Sections {
		if len(names) < 3 {
			names = append(names, label(s.Benchmark))
		}
		sv := sectionView{Section: s, Anchor: fmt.Sprintf("b%d", i)}
		for j, run := range s.Runs {
			if links == MaxLinks {
				pv.MoreLinks++
				continue
			}
			links++
			sv.Runs = append(sv.Runs, navView{Anchor: fmt.Sprintf("b%dr%d", i, j), Label: labelOf(run.Run)})
		}
		if len(sv.Runs) > 0 {
			pv.Sections = append(pv.Sections, sv)
		}
	}
	if len(names) > 0 {
		pv.Title = "Benchy report: " + strings.Join(names, ", ")
		if more := len(r.Sections) - len(names); more > 0 {
			pv.Title += fmt.Sprintf(" and %d more", more)
		}
	}
	return pv
}

// labelOf is a run's system label, cut as a name; "-" without one.
func labelOf(r api.Run) string {
	if r.System != nil && r.System.Label != "" {
		return label(r.System.Label)
	}
	return "-"
}

func runOf(r Run, anchor string) runView {
	v := runView{Run: r, Anchor: anchor, Label: labelOf(r.Run), Score: "-", Interval: "", Rep: r.Run.DecodeReport(), Sentence: clip(r.Health.Sentence())}
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
	v.Dimensions, v.MoreDims = dimensionsOf(r.Charts.Dimensions)
	for _, c := range r.Charts.Confusion {
		if r.Health.Failed || !counted(c) { // a run that never answered has only zeros to draw
			continue
		}
		if len(v.Confusion) == MaxMatrices {
			v.MoreMatrix++
			continue
		}
		v.Confusion = append(v.Confusion, confusionOf(c))
	}
	return v
}

// dimensionsOf are the rows of a run's accuracy by dimension: every dimension, or past
// MaxFields the least accurate MaxFields (a tie to the one declared first) in declaration
// order, with a line for the rest.
func dimensionsOf(dims []api.Dimension) ([]dimensionView, string) {
	keep := make([]int, len(dims))
	for i := range keep {
		keep[i] = i
	}
	more := ""
	if len(dims) > MaxFields {
		acc := func(i int) float64 {
			if a := dims[i].Accuracy; a != nil {
				return *a
			}
			return -1 // no accuracy: shown first
		}
		slices.SortStableFunc(keep, func(a, b int) int { return cmp.Compare(acc(a), acc(b)) })
		least := acc(keep[MaxFields])
		keep = keep[:MaxFields]
		slices.Sort(keep)
		more = fmt.Sprintf("%d more dimensions are not listed", len(dims)-MaxFields)
		if least >= 0 {
			more = fmt.Sprintf("%d more dimensions are not listed, each at least %.1f%% accurate", len(dims)-MaxFields, least*100)
		}
	}
	var out []dimensionView
	for _, i := range keep {
		d := dims[i]
		dv := dimensionView{Path: key(d.Path), Accuracy: "-", Correct: d.Correct, Valid: d.Valid, Weight: d.Weight}
		if d.Accuracy != nil {
			dv.Accuracy = fmt.Sprintf("%.1f%%", *d.Accuracy*100) // as the web's results page shows it
			dv.Width = *d.Accuracy * 100
		}
		out = append(out, dv)
	}
	return out, more
}

// counted tells whether a confusion matrix counts any example.
func counted(c api.Confusion) bool { return c.Total() > 0 }
