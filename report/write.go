package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/benchy-eval/benchy/api"
)

// Write writes r as one self-contained HTML document: inline CSS and SVG, no script, no
// URL of anything outside the file. Every value is escaped by html/template, so a
// prediction is always text. It streams: each run is loaded (Report.Load), drawn and
// written before the next, each failing example written as it is drawn, so what it holds
// at once is one run and one example, and the examples stop at MaxExampleBytes.
func Write(w io.Writer, r Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := &countingWriter{w: bw}
	if err := page.ExecuteTemplate(cw, "head", head(r)); err != nil {
		return err
	}
	examples := 0 // the bytes of examples written
	for i, s := range r.Sections {
		sv := sectionView{Section: s, Anchor: fmt.Sprintf("b%d", i)}
		if err := page.ExecuteTemplate(cw, "section", sv); err != nil {
			return err
		}
		for j := range s.Runs {
			run := s.Runs[j]
			n := r.Examples
			if examples >= MaxExampleBytes {
				n = 0
			}
			if r.Load != nil {
				if err := r.Load(&run, n); err != nil {
					return fmt.Errorf("run %s: %w", run.Run.ID, err)
				}
			}
			v := runOf(run, fmt.Sprintf("b%dr%d", i, j))
			v.Listed = min(n, len(run.Failing))
			// cut: the budget was spent before this run, or its load stopped short of the
			// examples asked (the store's page of them is bounded in bytes too)
			cut := (n < r.Examples || r.Load != nil && len(run.Failing) < min(n, run.FailingTotal)) && run.FailingTotal > 0
			var whole func(api.Result) (api.Result, error)
			if r.Whole != nil {
				id := run.Run.ID
				whole = func(res api.Result) (api.Result, error) { return r.Whole(id, res) }
			}
			if err := writeRun(cw, v, cut, &examples, whole); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil { // the run is out before the next is read
				return err
			}
		}
		if err := page.ExecuteTemplate(cw, "sectionEnd", sv); err != nil {
			return err
		}
	}
	if err := page.ExecuteTemplate(cw, "tail", nil); err != nil {
		return err
	}
	return bw.Flush()
}

// writeRun writes one run: its head and charts, then its v.Listed failing examples one by
// one while the report's examples (*spent bytes) are under MaxExampleBytes, each the store
// cut read again whole (whole, unless nil), then where they stop: cut when the budget
// stopped them (or, cut, stopped them before the run). Its heading counts the failing
// examples and the line after them how many it showed: only then is that known.
func writeRun(cw *countingWriter, v runView, cut bool, spent *int, whole func(api.Result) (api.Result, error)) error {
	if err := page.ExecuteTemplate(cw, "run", v); err != nil {
		return err
	}
	shown := 0
	for _, res := range v.Failing[:v.Listed] {
		if *spent >= MaxExampleBytes {
			break
		}
		if res.Clipped && whole != nil {
			read, err := whole(res)
			if err != nil {
				return fmt.Errorf("example %d: %w", res.Index, err)
			}
			res = read
		}
		start := cw.n
		if err := page.ExecuteTemplate(cw, "example", exampleOf(v.Program, res)); err != nil {
			return err
		}
		*spent += cw.n - start
		shown++
	}
	end := runEnd{None: v.FailingTotal == 0, NotShown: max(v.FailingTotal-shown, 0), Budget: MaxExampleBytes >> 20}
	end.Cut = cut || shown < v.Listed
	end.Text = notShown(end.NotShown, shown, end.Cut)
	return page.ExecuteTemplate(cw, "runEnd", end)
}

// runEnd is what a run says after its examples: none failed, or how many it showed and
// how many more failed than it showed: past --examples, or, past MaxExampleBytes, cut.
type runEnd struct {
	None     bool
	NotShown int
	Text     string // notShown's
	Cut      bool
	Budget   int // MaxExampleBytes in MiB
}

// notShown words that a run's notShown failing examples are not shown after the first
// shown: cut by the budget ("N failing examples of this run are not shown, after the
// first M") or past --examples ("these are the first M; N more failing examples are not
// listed").
func notShown(n, shown int, cut bool) string {
	noun, verb := "examples", "are"
	if n == 1 {
		noun, verb = "example", "is"
	}
	switch {
	case cut && shown > 0:
		return fmt.Sprintf("%d failing %s of this run %s not shown, after the first %d", n, noun, verb, shown)
	case cut:
		return fmt.Sprintf("%d failing %s of this run %s not shown", n, noun, verb)
	case shown > 0:
		return fmt.Sprintf("these are the first %d; %d more failing %s %s not listed", shown, n, noun, verb)
	}
	return fmt.Sprintf("%d failing %s %s not listed", n, noun, verb)
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += k
	return k, err
}
