package runs

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// What the user does on the runs page: start, cancel and resume runs, follow one, and
// pick two to compare.

// onRetry loads the page again after the server could not be reached.
func (p *Page) onRetry(ctx app.Context, e app.Event) {
	p.benches.Reset()
	p.bindings.Reset()
	p.loadBenches(ctx)
	if p.path != "" {
		p.file.Reset()
		path := p.path
		p.path = ""
		p.choose(ctx, path)
	}
}

// onStart asks the server to run the shown benchmark against the picked AI-systems, then
// follows the new runs: one in full, several side by side. A system the server refuses by
// name (its program not installed here) is left out and said so; the others run.
func (p *Page) onStart(ctx app.Context, e app.Event) {
	e.PreventDefault()
	choices := p.picked()
	if p.starting || p.path == "" || len(choices) == 0 {
		return
	}
	req := api.StartRun{Benchmark: p.path} // a zero limit or concurrency is the server's default
	if !onlyOwn(choices) {
		req.Systems = choices
	}
	var err error
	if req.Limit, err = positive(p.limit, "the limit"); err != nil {
		p.runErr = err
		return
	}
	if req.Concurrency, err = positive(p.concurrency, "the concurrency"); err != nil {
		p.runErr = err
		return
	}
	if err = p.modelOptions(&req); err != nil {
		p.runErr = err
		return
	}
	if p.executor != "" && hasExecutor(p.bindings.Value.Executors, p.executor) {
		req.Executor = p.executor
		if req.Shards, err = positive(p.shards, "the shards"); err != nil {
			p.runErr = err
			return
		}
	}
	p.starting, p.runErr, p.notRun, p.note = true, nil, notRun{}, ""
	path, labels := p.path, p.choiceLabels(choices)
	ctx.Async(func() {
		ids, left, err := live.Start(ctx, client.Default.StartRun, req, labels)
		ctx.Dispatch(func(ctx app.Context) {
			p.starting = false
			p.loadBindings(ctx) // the start read the runtime file as it is now: so does the binding line
			p.notRun = notRun{systems: left, ids: ids}
			if err != nil {
				p.runErr = err
				return
			}
			if len(ids) == 0 {
				return // every system was refused: the notes say why
			}
			p.loadRuns(ctx)
			ctx.Navigate(ui.RunsBatchURL(path, ids))
		})
	})
}

// positive reads an optional whole number of at least 1 from an input; empty is 0. What
// it refuses is shown as the server's refusals are, with a code (the app's own, bad_input).
func positive(s, what string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, &client.Error{Code: "bad_input", Message: what + " must be a whole number of at least 1 (or empty)"}
	}
	return n, nil
}

// onAction cancels or resumes the followed run (shown alone).
func (p *Page) onAction(action string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if len(p.followed) != 1 {
			return
		}
		id := p.followed[0].ID
		if action == "resume" {
			p.resume(ctx, id, api.Resume{})
			return
		}
		p.runErr, p.note = nil, ""
		ctx.Async(func() {
			err := client.Default.Cancel(ctx, id)
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					p.runErr = err
					return
				}
				p.note = noteOf(action)
				p.loadRuns(ctx)
			})
		})
	}
}

// resume resumes run id, followed alone, with req's budget (zero: the run's), and follows
// it anew.
func (p *Page) resume(ctx app.Context, id string, req api.Resume) {
	p.runErr, p.note = nil, ""
	ctx.Async(func() {
		_, err := client.Default.ResumeWith(ctx, id, req)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.runErr = err
				return
			}
			p.note = noteOf("resume")
			if len(p.followed) == 1 && p.followed[0].ID == id {
				p.follow(ctx, []string{id}) // a resumed run streams anew; a cancelled one ends its stream
				p.followed[0].Record.Status = api.Queued
			}
			p.loadRuns(ctx)
		})
	})
}

// noteOf is the success notice of a cancel or a resume.
func noteOf(action string) string {
	if action == "cancel" {
		return "Run cancelled."
	}
	return "Resumed: only the examples with no result are evaluated."
}

// onRow follows the clicked run (a click on its link or checkbox does what they do).
func (p *Page) onRow(ctx app.Context, e app.Event) {
	switch e.Get("target").Get("tagName").String() {
	case "A", "INPUT", "LABEL":
		return
	}
	if id := ctx.JSSrc().Get("dataset").Get("id").String(); id != "" && !slices.Equal(p.followedIDs(), []string{id}) {
		ctx.Navigate(ui.RunsURL(p.path, id))
	}
}

// onPick adds or removes a run from the two to compare; a third pick replaces the oldest.
func (p *Page) onPick(ctx app.Context, e app.Event) {
	id := ctx.JSSrc().Get("dataset").Get("id").String()
	checked := ctx.JSSrc().Get("checked").Bool()
	p.picks = pickRun(p.picks, id, checked)
}

func pickRun(picks []string, id string, on bool) []string {
	out := make([]string, 0, 2)
	for _, x := range picks {
		if x != id {
			out = append(out, x)
		}
	}
	if on {
		out = append(out, id)
	}
	if len(out) > 2 {
		out = out[len(out)-2:]
	}
	return out
}

// compareHref is the comparison of the two picked runs, the older one as A.
func (p *Page) compareHref() string {
	if len(p.picks) != 2 {
		return ""
	}
	a, b := p.picks[0], p.picks[1]
	if a > b { // ids sort by creation time
		a, b = b, a
	}
	return ui.CompareURL(a, b)
}

func (p *Page) onCompare(ctx app.Context, e app.Event) {
	if h := p.compareHref(); h != "" {
		ctx.Navigate(h)
	}
}
