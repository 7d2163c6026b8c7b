package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// progressBar shows a run's progress: a redrawn bar on a terminal, a plain line every few
// seconds otherwise (logs, CI).
type progressBar struct {
	w     io.Writer
	live  *liveLine // the terminal the bar is redrawn on; nil when it is not one
	last  time.Time
	every time.Duration
	p     engine.Progress
}

// newProgressBar draws on w: a terminal's standard error as Main wrapped it (a liveLine),
// whose other writers' lines then go above the bar, or anything else line by line.
func newProgressBar(w io.Writer) *progressBar {
	b := &progressBar{w: w, every: 2 * time.Second}
	live, ok := w.(*liveLine)
	if !ok && isTerminal(w) {
		live, ok = &liveLine{w: w}, true
	}
	if ok {
		b.live, b.every = live, 100*time.Millisecond
	}
	return b
}

func (b *progressBar) update(p engine.Progress) {
	b.p = p
	if now := time.Now(); now.Sub(b.last) >= b.every || p.Done == p.Total {
		b.last = now
		b.draw()
	}
}

func (b *progressBar) draw() {
	p := b.p
	if p.Total == 0 {
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
	counts := fmt.Sprintf("valid %d · invalid %d · errors %d", p.Summary.Valid, p.Summary.InvalidOutputs, p.Summary.ExecutionErrors)
	if b.live == nil {
		fmt.Fprintf(b.w, "progress %d/%d (%.0f%%) %.1f/s eta %s · %s\n", p.Done, p.Total, 100*float64(p.Done)/float64(p.Total), rate, eta, counts)
		return
	}
	const width = 30
	filled := width * p.Done / p.Total
	b.live.draw(fmt.Sprintf("[%s%s] %d/%d %.1f/s eta %s · %s",
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.Done, p.Total, rate, eta, counts))
}

// finish ends the bar's line on a terminal, leaving it drawn as it last was.
func (b *progressBar) finish() {
	if b.live != nil {
		b.live.end()
	}
}

// liveLine is standard error on a terminal, shared by a progress bar that redraws the last
// line in place and every other writer: the adapters' log lines (a command's stderr, each
// line prefixed by its binding), warnings. Written straight to the terminal, a log line
// landed at the end of the bar's line and the next redraw overwrote it in part; through
// liveLine the bar's line is cleared before any other text, and drawn again below it once
// that text ends its line.
type liveLine struct {
	mu      sync.Mutex
	w       io.Writer
	bar     string // the bar as drawn on the last line, "" when there is none
	partial bool   // the last other text ended mid-line: the bar waits for its line break
}

// liveStderr wraps standard error for Main: in a liveLine on a terminal, else as it is.
func liveStderr(w io.Writer) io.Writer {
	if isTerminal(w) {
		return &liveLine{w: w}
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

// clearLine moves to the start of the line and erases it.
const clearLine = "\r\x1b[K"

func (l *liveLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if l.bar != "" && !l.partial {
		io.WriteString(l.w, clearLine)
	}
	n, err := l.w.Write(p)
	l.partial = p[len(p)-1] != '\n'
	if l.bar != "" && !l.partial && err == nil {
		io.WriteString(l.w, l.bar)
	}
	return n, err
}

// draw shows bar in place of the one drawn, or once the text being written ends its line.
func (l *liveLine) draw(bar string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.partial {
		io.WriteString(l.w, clearLine+bar)
	}
	l.bar = bar
}

// end leaves the bar as drawn, on a line of its own: what follows goes below it.
func (l *liveLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bar != "" && !l.partial {
		io.WriteString(l.w, "\n")
	}
	l.bar = ""
}
