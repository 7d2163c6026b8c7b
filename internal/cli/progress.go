package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// progressBar shows a run's progress: a redrawn bar on a terminal, a plain line every few
// seconds otherwise (logs, CI).
type progressBar struct {
	w        io.Writer
	terminal bool
	last     time.Time
	every    time.Duration
	drawn    bool
	p        engine.Progress
}

func newProgressBar(w io.Writer) *progressBar {
	b := &progressBar{w: w, every: 2 * time.Second}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			b.terminal, b.every = true, 100*time.Millisecond
		}
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
	if !b.terminal {
		fmt.Fprintf(b.w, "progress %d/%d (%.0f%%) %.1f/s eta %s · %s\n", p.Done, p.Total, 100*float64(p.Done)/float64(p.Total), rate, eta, counts)
		return
	}
	const width = 30
	filled := width * p.Done / p.Total
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d %.1f/s eta %s · %s\x1b[K",
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.Done, p.Total, rate, eta, counts)
	b.drawn = true
}

// finish ends the bar's line on a terminal.
func (b *progressBar) finish() {
	if b.terminal && b.drawn {
		fmt.Fprintln(b.w)
	}
}
