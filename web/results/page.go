package results

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /results?run=ID[&status=S]: a run's score with its interval, counts by
// status, accuracy per dimension, and its examples a page at a time from the server
// (keyset pages: a run of a million examples costs the browser one page).
type Page struct {
	app.Compo

	id  string
	run ui.Load[api.Run] // keyed by id

	status string                  // the example status shown, "" for all
	after  int                     // the "after" of the page shown
	stack  []int                   // the "after" of each page before it, for going back
	page   ui.Load[api.ResultPage] // keyed by id: a new page or filter keeps the old page shown until it comes
}

// pageSize is how many examples a page of results shows.
const pageSize = 50

func (p *Page) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	id, status := q.Get("run"), q.Get("status")
	switch status {
	case api.Valid, api.InvalidOutput, api.ExecutionError:
	default:
		status = ""
	}
	if app.IsServer {
		p.id, p.status = id, status
		return
	}
	if id != p.id || !p.run.Answered() {
		p.id, p.status = id, status
		p.run.Reset()
		p.page.Reset()
		p.loadRun(ctx)
		p.reset(ctx)
		return
	}
	if status != p.status {
		p.status = status
		p.reset(ctx)
	}
}

// reset shows the first page of the current filter.
func (p *Page) reset(ctx app.Context) {
	p.after, p.stack = client.FirstPage, nil
	p.loadPage(ctx)
}

func (p *Page) loadRun(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	ui.Fetch(ctx, &p.run, id, func(c context.Context) (api.Run, error) { return client.Default.Run(c, id) }, nil)
}

// loadPage fetches the page of results after p.after with the current filter.
func (p *Page) loadPage(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	q := client.ResultsQuery{Status: p.status, After: p.after, Limit: pageSize}
	ui.Fetch(ctx, &p.page, id, func(c context.Context) (api.ResultPage, error) { return client.Default.Results(c, id, q) }, nil)
}

func (p *Page) onFilter(ctx app.Context, e app.Event) {
	status := ui.Selected(ctx)
	if status == statusAll {
		status = ""
	}
	ctx.Navigate(ui.ResultsURL(p.id, status))
}

func (p *Page) onNext(ctx app.Context, e app.Event) {
	if !p.page.OK || p.page.Value.Next < 0 || p.page.Busy {
		return
	}
	p.stack = append(p.stack, p.after)
	p.after = p.page.Value.Next
	p.loadPage(ctx)
}

func (p *Page) onPrev(ctx app.Context, e app.Event) {
	if len(p.stack) == 0 || p.page.Busy {
		return
	}
	p.after = p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	p.loadPage(ctx)
}

// summary is the run's counts by status: the report's for a completed run.
func (p *Page) summary() *api.Summary {
	if !p.run.OK {
		return nil
	}
	if rep := p.run.Value.DecodeReport(); rep != nil {
		return &rep.Summary
	}
	return p.run.Value.Summary
}

// exportName is the file name of run id's export in format.
func exportName(id, format string) string { return "benchy-" + id + "." + format }

// onExport downloads an export with the tab's token when the server wants one (a plain
// link cannot send it); without a token the link downloads by itself. The run is read
// when the link is clicked (go-app keeps a handler's first closure; the format of a link
// never changes).
func (p *Page) onExport(format string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if !client.HasToken() {
			return
		}
		e.PreventDefault()
		id := p.id
		ctx.Async(func() {
			data, ctype, err := client.Default.Export(ctx, id, format)
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					app.Window().Call("alert", "Export failed: "+ui.ErrText(err))
					return
				}
				ui.SaveBytes(exportName(id, format), ctype, data)
			})
		})
	}
}

// statusAll is the results filter's value for every status.
const statusAll = "all"

// countFor is how many examples of summary s have status (all of them for "").
func countFor(s api.Summary, status string) int {
	switch status {
	case api.Valid:
		return s.Valid
	case api.InvalidOutput:
		return s.InvalidOutputs
	case api.ExecutionError:
		return s.ExecutionErrors
	}
	return s.Examples
}

// pageCount is how many pages of size n hold count rows (at least one).
func pageCount(count, n int) int {
	if count <= 0 || n <= 0 {
		return 1
	}
	return (count + n - 1) / n
}
