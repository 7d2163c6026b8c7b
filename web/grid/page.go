package grid

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /leaderboard/examples: the URL names the board, the filter and the status, so a
// reload or a shared link shows the same examples; the page within them is the page's own.
type Page struct {
	app.Compo

	bench, dataset, filter, status string // from the URL

	page  ui.Load[api.Grid] // keyed by the URL's query and the page's after
	after int               // the shown page's after
	stack []int             // the afters of the pages before it, for "Previous"
}

// pageSize is how many examples a page shows.
const pageSize = 50

func (p *Page) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	p.bench, p.dataset, p.filter, p.status = q.Get("benchmark"), q.Get("dataset"), q.Get("filter"), q.Get("status")
	if app.IsServer || p.bench == "" {
		return
	}
	p.stack = nil
	p.load(ctx, client.FirstPage)
}

// load reads the page of examples after after.
func (p *Page) load(ctx app.Context, after int) {
	p.after = after
	q := client.GridQuery{
		Board:  client.BoardQuery{Benchmark: p.bench, DatasetDigest: p.dataset},
		Filter: p.filter, Status: p.status, After: after, Limit: pageSize,
	}
	key := p.bench + "\n" + p.dataset
	ui.Fetch(ctx, &p.page, key, func(c context.Context) (api.Grid, error) {
		return client.Default.Grid(c, q)
	}, nil)
}

func (p *Page) ready() bool { return p.bench == "" || p.page.Answered() && !p.page.Busy }

func (p *Page) onFilter(ctx app.Context, e app.Event) {
	ctx.Navigate(ui.GridURL(p.bench, p.dataset, ui.Selected(ctx), p.status))
}

func (p *Page) onStatus(ctx app.Context, e app.Event) {
	ctx.Navigate(ui.GridURL(p.bench, p.dataset, p.filter, ui.Selected(ctx)))
}

func (p *Page) onNext(ctx app.Context, e app.Event) {
	if !p.page.OK || p.page.Busy || p.page.Value.Next < 0 {
		return
	}
	p.stack = append(p.stack, p.after)
	p.load(ctx, p.page.Value.Next)
}

func (p *Page) onPrev(ctx app.Context, e app.Event) {
	if len(p.stack) == 0 || p.page.Busy {
		return
	}
	after := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	p.load(ctx, after)
}
