package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
)

// progressBar shows a run's progress: a redrawn bar on a terminal, a plain line every few
// seconds otherwise (logs, CI). While the run's requests wait for a provider's rate limit
// it says so ("waiting for the rate limit (tokens per minute) 12s"), and is drawn again
// at its pace though no example ends.
type progressBar struct {
	mu      sync.Mutex // the engine's progress and the waiting clock both draw
	w       io.Writer
	live    *liveLine // the terminal the bar is redrawn on; nil when it is not one
	last    time.Time
	every   time.Duration
	p       engine.Progress
	waiting func() (since time.Time, why string, ok bool)
	waited  bool // the last line drawn said the run waited
	stop    chan struct{}
	stopped sync.Once
}

// newProgressBar draws on w: a terminal's standard error as Main wrapped it (a liveLine),
// whose other writers' lines then go above the bar, or anything else line by line.
func newProgressBar(w io.Writer) *progressBar {
	b := &progressBar{w: w, every: 2 * time.Second, waiting: workspace.Waiting, stop: make(chan struct{})}
	live, ok := w.(*liveLine)
	if !ok && isTerminal(w) {
		live, ok = newLiveLine(w), true
	}
	if ok {
		b.live, b.every = live, 100*time.Millisecond
	}
	go b.watch()
	return b
}

// watch draws the bar again at its pace while the run waits for a rate limit, and once
// more when the wait ends, until finish.
func (b *progressBar) watch() {
	tick := time.NewTicker(min(b.every, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
		}
		_, _, waiting := b.waiting()
		b.mu.Lock()
		if waiting || b.waited {
			if now := time.Now(); now.Sub(b.last) >= b.every {
				b.last = now
				b.draw()
			}
		}
		b.mu.Unlock()
	}
}

func (b *progressBar) update(p engine.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.p = p
	if now := time.Now(); now.Sub(b.last) >= b.every || p.Done == p.Total {
		b.last = now
		b.draw()
	}
}

// validated gives the bar the run's total once the dataset is checked, before any example
// ends, so that it reads 0/20 rather than 0/?; on a terminal it is drawn at once.
func (b *progressBar) validated(v engine.Validated) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.p.Total == 0 {
		b.p.Total = v.Total
	}
	if b.live != nil && b.p.Total > 0 {
		b.last = time.Now()
		b.draw()
	}
}

// waitText is what the bar says of a wait for a rate limit: "" when there is none.
func (b *progressBar) waitText() string {
	since, why, ok := b.waiting()
	b.waited = ok
	if !ok {
		return ""
	}
	return fmt.Sprintf(" · waiting for the rate limit (%s) %s", why, time.Since(since).Round(time.Second))
}

// draw draws the bar, with b.mu held.
func (b *progressBar) draw() {
	p := b.p
	wait := b.waitText()
	if p.Total == 0 { // no example has ended yet
		if wait == "" {
			return
		}
		if b.live == nil {
			fmt.Fprintf(b.w, "progress 0/?%s\n", wait)
		} else {
			b.live.draw(cut("0/?"+wait, b.live.columns()-1))
		}
		return
	}
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Done) / s
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.Total-p.Done)/rate) * time.Second).Round(time.Second).String()
	}
	if b.live == nil {
		fmt.Fprintf(b.w, "progress %d/%d (%.0f%%) %.1f/s eta %s · valid %d · invalid %d · errors %d%s\n", p.Done, p.Total, 100*float64(p.Done)/float64(p.Total),
			rate, eta, p.Summary.Valid, p.Summary.InvalidOutputs, p.Summary.ExecutionErrors, wait)
		return
	}
	b.live.draw(cut(barLine(p, rate, eta, b.live.columns()-utf8.RuneCountInString(wait))+wait, b.live.columns()-1))
}

// barLine is the bar's line for p within columns-1 columns, the last one left free: a line
// that fills the width wraps on some terminals, and the clearing before each log line
// erases only the last row of a wrapped bar, leaving its first above every log line. The
// bar shrinks first, from 30 cells to 10; then the rate, the ETA and the count of valid
// answers go, in that order (the invalid and errors counts are what a user watches for);
// then the bar; what still does not fit is cut.
func barLine(p engine.Progress, rate float64, eta string, columns int) string {
	const most, least = 30, 10
	room := columns - 1
	for drop := 0; ; drop++ { // the parts dropped: 1 the rate, 2 the ETA too, 3 the valid count too
		rest := fmt.Sprintf("%d/%d", p.Done, p.Total)
		if drop < 1 {
			rest += fmt.Sprintf(" %.1f/s", rate)
		}
		if drop < 2 {
			rest += " eta " + eta
		}
		rest += " · "
		if drop < 3 {
			rest += fmt.Sprintf("valid %d · ", p.Summary.Valid)
		}
		rest += fmt.Sprintf("invalid %d · errors %d", p.Summary.InvalidOutputs, p.Summary.ExecutionErrors)
		cells := min(most, room-len("[] ")-utf8.RuneCountInString(rest))
		if cells >= least {
			filled := cells * p.Done / p.Total
			return "[" + strings.Repeat("#", filled) + strings.Repeat(".", cells-filled) + "] " + rest
		}
		if drop == 3 {
			return cut(rest, room)
		}
	}
}

// cut keeps the first n runes of s.
func cut(s string, n int) string {
	if n < 0 {
		n = 0
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// finish ends the bar's line on a terminal, leaving it drawn as it last was.
func (b *progressBar) finish() {
	b.stopped.Do(func() { close(b.stop) })
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.live != nil {
		b.live.end()
	}
}

// liveLine is standard error on a terminal, shared by a progress bar that redraws the last
// line in place and every other writer: the adapters' log lines (a command's stderr, each
// line prefixed by its binding), warnings. Written straight to the terminal, a log line
// landed at the end of the bar's line and the next redraw overwrote it in part; through
// liveLine the bar's line is cleared before any other text, and drawn again below it once
// that text ends its line. The adapters' stderr comes apart from the rest (Stderr), to be
// made harmless to the terminal and bounded (progress_stderr.go).
type liveLine struct {
	mu      sync.Mutex
	w       io.Writer
	cols    func() int // the terminal's width now, 0 when unknown; nil: unknown
	bar     string     // the bar as drawn on the last line, "" when there is none
	partial bool       // the last other text ended mid-line: the bar waits for its line break
	stderr  stderrShown
}

// newLiveLine is a liveLine on w, a terminal: its width is asked at each redraw, which
// follows a resize with no signal handler (an ioctl every 100 ms at most, and one per log
// line shown).
func newLiveLine(w io.Writer) *liveLine {
	l := &liveLine{w: w}
	if f, ok := w.(*os.File); ok {
		l.cols = func() int { return terminalColumns(f) }
	}
	return l
}

// liveStderr wraps standard error for Main: in a liveLine on a terminal, else as it is.
func liveStderr(w io.Writer) io.Writer {
	if isTerminal(w) {
		return newLiveLine(w)
	}
	return w
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// columns is the terminal's width, 80 when it cannot be known.
func (l *liveLine) columns() int {
	if l.cols != nil {
		if n := l.cols(); n > 0 {
			return n
		}
	}
	return 80
}

// clearLine moves to the start of the line and erases it.
const clearLine = "\r\x1b[K"

func (l *liveLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.put(p)
}

// put writes p above the bar, with l.mu held.
func (l *liveLine) put(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if l.bar != "" && !l.partial {
		io.WriteString(l.w, clearLine)
	}
	n, err := l.w.Write(p)
	l.partial = p[len(p)-1] != '\n'
	if l.bar != "" && !l.partial && err == nil {
		io.WriteString(l.w, l.fitted())
	}
	return n, err
}

// fitted is the bar cut to the terminal's width now, which may have shrunk since it was
// made.
func (l *liveLine) fitted() string { return cut(l.bar, l.columns()-1) }

// draw shows bar in place of the one drawn, or once the text being written ends its line.
func (l *liveLine) draw(bar string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bar = bar
	if !l.partial {
		io.WriteString(l.w, clearLine+l.fitted())
	}
}

// end leaves the bar as drawn, on a line of its own: what follows goes below it. It ends
// the run's share of the adapters' stderr too, saying what was not shown of it.
func (l *liveLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bar != "" && !l.partial {
		io.WriteString(l.w, "\n")
	}
	l.bar = ""
	l.endStderr()
}
