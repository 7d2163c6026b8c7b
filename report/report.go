package report

import (
	"fmt"
	"html/template"
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
	// Load, when set, fills a run's Charts, Health, Program, Failing (at most examples of
	// them) and FailingTotal as Write reaches it, so that one run is in memory at a time
	// (fromstore.Gather sets it); a run's Run is set beforehand. Write asks for no
	// examples once MaxExampleBytes are written.
	Load func(r *Run, examples int) error
	// Whole, when set, reads again a failing example whose values the list cut (Clipped)
	// with each value whole up to api.MaxDetail bytes, as the API's example endpoint reads
	// it (fromstore.Gather sets it): a page of results cuts each value at 16 KiB
	// (store.MaxShown) to one JSON string, in which no field can be found. Write calls it
	// as it writes such an example, so one is in memory at a time; a value still cut shows
	// what its start holds (fillCut).
	Whole func(run string, res api.Result) (api.Result, error)
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

// MaxFields bounds the fields an example shows, of its output and of its input each (the
// wrong output fields first), and the rows of a run's accuracy by dimension (the least
// accurate): a benchmark of 14,000 output fields made every failing example a table of
// 14,000 rows, and 8 runs of it 606 MB of HTML. The rest are counted in a line.
const MaxFields = 50

// MaxMatrices bounds the confusion matrices a run draws (each at most 21×21 cells, some
// 100 KB of SVG), in declaration order; the rest are named in a line.
const MaxMatrices = 8

// MaxExampleBytes bounds the bytes of failing examples one report writes, all runs
// together: 20 examples of 50 fields near MaxValue are 4 MB, and 20 runs of them would be
// 80 MB. Past it each run says, where its examples stop, how many are not shown.
const MaxExampleBytes = 8 << 20

// MaxLabel bounds, in characters, each name the report draws: an enum member, a
// dimension's or a field's path, a system's label and binding, a benchmark's name. A
// member is bounded only by its benchmark file (1 MiB), and a matrix named two in each of
// its 441 cells: 20 members of 49,000 "&" (5 bytes each in HTML) made one run's report
// 196 MB. A longer name ends in "…".
const MaxLabel = 80

// MaxReportBytes bounds a report as written, all its runs together. Each part of it is
// bounded (a run's head and charts by MaxLabel, MaxFields and MaxMatrices, an example by
// MaxFields and MaxValue, the examples by MaxExampleBytes), and Write writes a part only
// while the report stays within this bound, then says where it stopped: 20 runs of
// charts as large as a run's can be (8 matrices of members of 80 "&") are 21 MB, and the
// examples at most 8 MiB and one example more.
const MaxReportBytes = 32 << 20

// MaxLinks bounds the runs the head of a report links to (benchy report takes any number
// of runs); a line counts the rest.
const MaxLinks = 100

// label is s as the report draws a name: at most MaxLabel characters.
func label(s string) string { return cutChars(s, MaxLabel) }

// cutChars is s cut to at most most characters, the last a "…" when it was cut.
func cutChars(s string, most int) string {
	n, cut := 0, 0
	for i := range s { // not []rune(s): a name may be 1 MiB
		switch n {
		case most - 1:
			cut = i
		case most:
			return s[:cut] + "…"
		}
		n++
	}
	return s
}

// key is a field's path as the page shows it, cut as a name (label).
func key(path []string) string { return label(api.DimensionKey(path)) }

var funcs = template.FuncMap{
	"key":   key,
	"path":  api.DimensionKey, // whole: what a lookup by path needs
	"label": label,
	"clip":  clip,
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
	"given": func(runs []Run, id string) bool {
		for _, r := range runs {
			if r.Run.ID == id {
				return true
			}
		}
		return false
	},
}
