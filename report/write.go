package report

import (
	"bufio"
	"fmt"
	"io"
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
			v.MoreFailing = max(run.FailingTotal-v.Listed, 0)
			cut := n < r.Examples && run.FailingTotal > 0 // the budget was spent before this run
			if err := writeRun(cw, v, cut, &examples); err != nil {
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
// one while the report's examples (*spent bytes) are under MaxExampleBytes, then where
// they stop: cut when the budget stopped them (or, cut, stopped them before the run).
func writeRun(cw *countingWriter, v runView, cut bool, spent *int) error {
	if err := page.ExecuteTemplate(cw, "run", v); err != nil {
		return err
	}
	shown := 0
	for _, res := range v.Failing[:v.Listed] {
		if *spent >= MaxExampleBytes {
			break
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
	end.MoreText = fmt.Sprintf("%d more failing examples are not listed", end.NotShown)
	if end.NotShown == 1 {
		end.MoreText = "1 more failing example is not listed"
	}
	return page.ExecuteTemplate(cw, "runEnd", end)
}

// runEnd is what a run says after its examples: none failed, how many more failed than
// --examples listed, or, past MaxExampleBytes, that the report was cut there.
type runEnd struct {
	None     bool
	NotShown int
	MoreText string // "N more failing examples are not listed"
	Cut      bool
	Budget   int // MaxExampleBytes in MiB
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
