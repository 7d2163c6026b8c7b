package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/benchy-eval/benchy/api"
)

// Write writes r as one self-contained HTML document: inline CSS and SVG, no script, no
// URL of anything outside the file. Every value is escaped by html/template, so a
// prediction is always text. It streams: each run is loaded (Report.Load), drawn and
// written before the next, each failing example written as it is drawn, so what it holds
// at once is one run and one example, and the examples stop at MaxExampleBytes. The
// whole stops within MaxReportBytes: a part (a section's head, a run's, an example) that
// would pass it is not written, nor is any after it, and a note says how many runs are
// not shown; no run after the cut is loaded.
func Write(w io.Writer, r Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	out := &parts{w: bw, room: MaxReportBytes - closing}
	if _, err := out.write("head", head(r), true); err != nil {
		return err
	}
	runs := 0
	for _, s := range r.Sections {
		runs += len(s.Runs)
	}
	examples := 0 // the bytes of examples written
	shown := 0    // the runs written
	first := ""   // the first run not shown
	for i, s := range r.Sections {
		sv := sectionView{Section: s, Anchor: fmt.Sprintf("b%d", i)}
		ok, err := out.write("section", sv, false)
		if err != nil {
			return err
		}
		if !ok {
			if len(s.Runs) > 0 {
				first = s.Runs[0].Run.ID
			}
			break
		}
		for j := range s.Runs {
			run := s.Runs[j]
			if out.full() {
				first = run.Run.ID
				break
			}
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
			ok, err := writeRun(out, v, cut, &examples, whole)
			if err != nil {
				return err
			}
			if !ok {
				first = run.Run.ID
				break
			}
			shown++
			if err := bw.Flush(); err != nil { // the run is out before the next is read
				return err
			}
		}
		if _, err := out.write("sectionEnd", sv, true); err != nil {
			return err
		}
		if first != "" {
			break
		}
	}
	if shown < runs {
		end := reportCut{NotShown: runs - shown, First: label(first), Bound: MaxReportBytes >> 20}
		if _, err := out.write("reportCut", end, true); err != nil {
			return err
		}
	}
	if _, err := out.write("tail", nil, true); err != nil {
		return err
	}
	return bw.Flush()
}

// closing is what Write keeps of MaxReportBytes for what it writes after the last part
// that fits: a run's end, its section's, the note of the runs not shown and the tail.
const closing = 4 << 10

// reportCut is the note of the runs a report does not show, past MaxReportBytes.
type reportCut struct {
	NotShown int
	First    string // the first of them
	Bound    int    // MaxReportBytes in MiB
}

// writeRun writes one run: its head and charts, then its v.Listed failing examples one by
// one while the report's examples (*spent bytes) are under MaxExampleBytes and the report
// under MaxReportBytes, each the store cut read again whole (whole, unless nil), then
// where they stop: cut when a bound stopped them (or, cut, stopped them before the run).
// Its heading counts the failing examples and the line after them how many it showed:
// only then is that known. It writes nothing, false, when the run's head would pass
// MaxReportBytes.
func writeRun(out *parts, v runView, cut bool, spent *int, whole func(api.Result) (api.Result, error)) (bool, error) {
	if ok, err := out.write("run", v, false); err != nil || !ok {
		return false, err
	}
	shown, full := 0, false
	for _, res := range v.Failing[:v.Listed] {
		if *spent >= MaxExampleBytes {
			break
		}
		if res.Clipped && whole != nil {
			read, err := whole(res)
			if err != nil {
				return true, fmt.Errorf("example %d: %w", res.Index, err)
			}
			res = read
		}
		start := out.n
		ok, err := out.write("example", exampleOf(v.Program, res), false)
		if err != nil {
			return true, err
		}
		if !ok {
			full = true
			break
		}
		*spent += out.n - start
		shown++
	}
	end := runEnd{None: v.FailingTotal == 0, NotShown: max(v.FailingTotal-shown, 0), Budget: MaxExampleBytes >> 20,
		Full: full, Bound: MaxReportBytes >> 20}
	end.Cut = cut || shown < v.Listed
	end.Text = notShown(end.NotShown, shown, end.Cut)
	_, err := out.write("runEnd", end, true)
	return true, err
}

// runEnd is what a run says after its examples: none failed, or how many it showed and
// how many more failed than it showed: past --examples, or, past MaxExampleBytes, cut.
type runEnd struct {
	None     bool
	NotShown int
	Text     string // notShown's
	Cut      bool
	Budget   int  // MaxExampleBytes in MiB
	Full     bool // cut at MaxReportBytes, not at the examples' budget
	Bound    int  // MaxReportBytes in MiB
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

// parts writes a report part by part, each drawn whole into buf before it is written,
// and counts the bytes written (n): a part that would take them past room is not written
// unless it must be (the ends that close the document, which closing keeps room for).
type parts struct {
	w       io.Writer
	buf     bytes.Buffer
	n       int
	room    int
	stopped bool // a part did not fit: none after it is written, though a smaller one might fit
}

// write draws the template part name of data and writes it when it fits in the room
// left, or must; it tells whether it wrote it.
func (p *parts) write(name string, data any, must bool) (bool, error) {
	p.buf.Reset()
	if err := page.ExecuteTemplate(&p.buf, name, data); err != nil {
		return false, err
	}
	if !must && (p.stopped || p.n+p.buf.Len() > p.room) {
		p.stopped = true
		return false, nil
	}
	k, err := p.w.Write(p.buf.Bytes())
	p.n += k
	if p.buf.Cap() > 1<<20 { // a run's charts: not kept for the examples after it
		p.buf = bytes.Buffer{}
	}
	return true, err
}

// full tells whether no part but the ends is written any more.
func (p *parts) full() bool { return p.stopped || p.n >= p.room }
