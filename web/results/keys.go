package results

import (
	"net/url"

	"github.com/benchy-eval/benchy/web/ui"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// listenKeys moves through the examples from the keyboard: in an example, j or ↓ opens
// the next one under the filter, k or ↑ the one before, Esc goes back to the list; in the
// list, j or ↓ opens the first example of the page. Keys typed into a control (the search
// box, a select) are theirs. It returns what stops listening.
func (p *Page) listenKeys(ctx app.Context) func() {
	return ui.ListenWindow("keydown", func(ev app.Value) {
		if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() || inControl(ev) {
			return
		}
		key := ev.Get("key").String()
		switch key {
		case "j", "k", "Escape":
		case "ArrowDown", "ArrowUp":
			if p.example < 0 { // the list scrolls with them (the app runs on one thread: p is read as it is)
				return
			}
		default:
			return
		}
		ev.Call("preventDefault")
		ctx.Dispatch(func(ctx app.Context) { p.onKey(ctx, key) })
	})
}

// onKey acts on a key and reports whether it did. A key that moves from what has not
// come yet (the page of the list, the example's neighbours) is kept and acted on once it
// has: a j pressed as the example opened was lost, and moving with the neighbours of
// the example before would open the same example again.
func (p *Page) onKey(ctx app.Context, key string) bool {
	if p.example < 0 && (key == "ArrowDown" || key == "ArrowUp") {
		return false
	}
	next := key == "j" || key == "ArrowDown"
	prev := key == "k" || key == "ArrowUp"
	if p.example < 0 {
		switch {
		case !next:
			return false
		case p.page.Busy || !p.page.Answered():
			p.pending = key
		case p.page.OK && len(p.page.Value.Results) > 0:
			p.goTo(ctx, p.filter, p.after, p.page.Value.Results[0].Index)
		default:
			return false
		}
		return true
	}
	d := p.detail
	loaded := d.OK && !d.Busy && d.Value.Index == p.example
	switch {
	case key == "Escape":
		p.pending = ""
		p.goTo(ctx, p.filter, p.after, -1)
	case (next || prev) && !loaded && (d.Busy || !d.Answered()):
		p.pending = key
	case next && loaded && d.Value.Next >= 0:
		p.moveTo(ctx, d.Value.Next)
	case prev && loaded && d.Value.Prev >= 0:
		p.moveTo(ctx, d.Value.Prev)
	default:
		return next || prev // at an end: the page does not scroll instead
	}
	return true
}

// moveTo shows example n in place of the one shown: the history entry is replaced, not
// one pushed an example, so that Back from any example returns to the list.
func (p *Page) moveTo(ctx app.Context, n int) {
	u, err := url.Parse(pageURL(p.id, p.filter, p.after, n))
	if err != nil {
		return
	}
	ctx.Page().ReplaceURL(u)
	p.OnNav(ctx)
}

// takePending acts on the key kept while what it moves from was on its way.
func (p *Page) takePending(ctx app.Context) {
	if k := p.pending; k != "" {
		p.pending = ""
		p.onKey(ctx, k)
	}
}

// inControl reports whether a key event is typed into an input, a select or a text area.
func inControl(ev app.Value) bool {
	t := ev.Get("target")
	if !t.Truthy() {
		return false
	}
	switch t.Get("tagName").String() {
	case "INPUT", "SELECT", "TEXTAREA":
		return true
	}
	return false
}
