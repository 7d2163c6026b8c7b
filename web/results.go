package web

import (
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// ResultsPage is /results?run=ID[&status=S]: a run's score with its interval, counts by
// status, accuracy per dimension, and its examples a page at a time from the server
// (keyset pages: a run of a million examples costs the browser one page).
type ResultsPage struct {
	app.Compo

	id     string
	run    *api.Run
	runErr error

	status  string // the example status shown, "" for all
	after   int    // the "after" of the page shown
	stack   []int  // the "after" of each page before it, for going back
	page    *api.ResultPage
	pageErr error
	loading bool
	gen     int // counts page requests: only the last one's answer is shown
}

// pageSize is how many examples a page of results shows.
const pageSize = 50

// firstPage is the "after" of the first page.
const firstPage = -1

func (p *ResultsPage) OnNav(ctx app.Context) {
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
	if id != p.id || p.run == nil && p.runErr == nil {
		p.id, p.run, p.runErr, p.page, p.pageErr = id, nil, nil, nil, nil
		p.status = status
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
func (p *ResultsPage) reset(ctx app.Context) {
	p.after, p.stack = firstPage, nil
	p.loadPage(ctx)
}

func (p *ResultsPage) loadRun(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	ctx.Async(func() {
		var r api.Run
		err := Get(ctx, api.RunPath(id), &r)
		ctx.Dispatch(func(ctx app.Context) {
			if p.id != id {
				return
			}
			p.runErr = err
			if err == nil {
				p.run = &r
			}
		})
	})
}

// loadPage fetches the page of results after p.after with the current filter.
func (p *ResultsPage) loadPage(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	p.gen++
	gen := p.gen
	q := url.Values{"limit": {strconv.Itoa(pageSize)}}
	if p.after != firstPage {
		q.Set("after", strconv.Itoa(p.after))
	}
	if p.status != "" {
		q.Set("status", p.status)
	}
	p.loading = true
	ctx.Async(func() {
		var pg api.ResultPage
		err := Get(ctx, api.ResultsPath(id, q), &pg)
		ctx.Dispatch(func(ctx app.Context) {
			if p.gen != gen {
				return
			}
			p.loading, p.pageErr = false, err
			if err == nil {
				p.page = &pg
			}
		})
	})
}

func (p *ResultsPage) onFilter(ctx app.Context, e app.Event) {
	status := selected(ctx)
	if status == statusAll {
		status = ""
	}
	ctx.Navigate(resultsURL(p.id, status))
}

func (p *ResultsPage) onNext(ctx app.Context, e app.Event) {
	if p.page == nil || p.page.Next < 0 || p.loading {
		return
	}
	p.stack = append(p.stack, p.after)
	p.after = p.page.Next
	p.loadPage(ctx)
}

func (p *ResultsPage) onPrev(ctx app.Context, e app.Event) {
	if len(p.stack) == 0 || p.loading {
		return
	}
	p.after = p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	p.loadPage(ctx)
}

// summary is the run's counts by status: the report's for a completed run.
func (p *ResultsPage) summary() *api.Summary {
	if p.run == nil {
		return nil
	}
	if rep := p.run.DecodeReport(); rep != nil {
		return &rep.Summary
	}
	return p.run.Summary
}

// exportHref is the server's export of the run in format.
func exportHref(id, format string) string {
	return api.ResultsPath(id, url.Values{"format": {format}})
}

// onExport downloads an export with the tab's token when the server wants one (a plain
// link cannot send it); without a token the link downloads by itself.
func onExport(ctx app.Context, e app.Event) {
	if token() == "" {
		return
	}
	e.PreventDefault()
	href := ctx.JSSrc().Call("getAttribute", "href").String()
	name := ctx.JSSrc().Call("getAttribute", "download").String()
	ctx.Async(func() {
		data, ctype, err := fetchBytes(ctx, href)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				app.Window().Call("alert", "Export failed: "+apiErrText(err))
				return
			}
			saveBytes(name, ctype, data)
		})
	})
}
