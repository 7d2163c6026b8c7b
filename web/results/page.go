package results

import (
	"context"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /results?run=ID: a run's score with its interval and health, its charts, its
// examples a page at a time under a filter (keyset pages from the server: a run of a
// million examples costs the browser one page), and one example in full
// (&example=N). Everything the page shows is in its URL, so that a reload, a shared link
// and back/forward show it again.
type Page struct {
	app.Compo

	id     string
	run    ui.Load[api.Run]    // keyed by id
	bench  *ir.Benchmark       // the run's IR, decoded once it comes; nil when it cannot be
	charts ui.Load[api.Charts] // keyed by id

	filter  api.Filter
	after   int   // the "after" of the page shown
	stack   []int // the "after" of each page before it, for going back
	example int   // the example shown in full, -1 for the list

	page     ui.Load[api.ResultPage] // keyed by id: a new page or filter keeps the old page shown until it comes
	stopPage func()                  // cancels the fetch of the page on its way (a scanned filter asks several times)
	detail   ui.Load[api.ExampleDetail]
	text     string // the search box as typed, before it is applied
	typed    int    // counts keystrokes in the search box, for its debounce
	stopKeys func()

	blobs    map[string]*blob // the artifacts of the example shown, by served URL, when the tab holds a token
	pending  string           // a key pressed before what it moves from had come: acted on once it has
	back     bool             // Previous is going to backTo, which it found from a page reached by a link
	backTo   int              // the after of the page before, found from its first example's neighbours
	finding  bool             // Previous is looking for backTo
	returnTo int              // 1 + the example whose row the list shows and focuses once drawn (Esc), 0 for none
}

// pageSize is how many examples a page of results shows.
const pageSize = 50

// searchDelay is how long the search box waits after the last keystroke before it asks.
const searchDelay = 300 * time.Millisecond

// state is what the URL of the results page says.
type state struct {
	id      string
	filter  api.Filter
	after   int
	example int
}

// parseState reads the results page's URL query, dropping values the page cannot ask
// for (the server checks the rest).
func parseState(q map[string][]string) state {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	f := api.FilterOf(q)
	switch f.Status {
	case api.Valid, api.InvalidOutput, api.ExecutionError:
	default:
		f.Status = ""
	}
	if f.Sort != api.SortScore {
		f.Sort = ""
	}
	if f.Field == "" {
		f.Expected, f.Predicted = "", ""
	}
	return state{id: get("run"), filter: f, after: index(get(api.QAfter)), example: index(get(api.QExample))}
}

// index reads a non-negative index, -1 for anything else.
func index(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// pageURL is the results page of run id under filter f, at the page after after, with
// example open when it is not -1.
func pageURL(id string, f api.Filter, after, example int) string {
	q := f.Values()
	q.Set("run", id)
	if after >= 0 {
		q.Set(api.QAfter, strconv.Itoa(after))
	}
	if example >= 0 {
		q.Set(api.QExample, strconv.Itoa(example))
	}
	return "/results?" + q.Encode()
}

// goTo navigates to the page's state with f, after and example.
func (p *Page) goTo(ctx app.Context, f api.Filter, after, example int) {
	ctx.Navigate(pageURL(p.id, f, after, example))
}

func (p *Page) OnNav(ctx app.Context) {
	s := parseState(ctx.Page().URL().Query())
	if app.IsServer {
		p.id, p.filter, p.after, p.example, p.text = s.id, s.filter, s.after, s.example, s.filter.Text
		return
	}
	fresh := s.id != p.id || !p.run.Answered()
	filterChanged := s.filter != p.filter
	if fresh {
		p.id = s.id
		p.run.Reset()
		p.charts.Reset()
		p.page.Reset()
		p.detail.Reset()
		p.bench = nil
		p.loadRun(ctx)
		p.loadCharts(ctx)
	}
	if fresh || filterChanged {
		p.stack = nil
		p.text = s.filter.Text
	} else if s.after != p.after {
		switch {
		case s.after < 0:
			p.stack = nil
		case len(p.stack) > 0 && p.stack[len(p.stack)-1] == s.after:
			p.stack = p.stack[:len(p.stack)-1] // back
		case p.back && s.after == p.backTo:
			// back from a page reached by a link: no pages before it known still
		default:
			p.stack = append(p.stack, p.after) // next, or forward
		}
	}
	pageChanged := fresh || filterChanged || s.after != p.after
	exampleChanged := fresh || filterChanged || s.example != p.example
	if exampleChanged && s.example < 0 && p.example >= 0 && !fresh && !filterChanged {
		p.returnTo = p.example + 1 // Esc: back to its row once the list is drawn
		ctx.Defer(p.showReturn)
	}
	p.back = false
	if pageChanged || exampleChanged {
		p.finding = false
		p.pending = "" // a key pressed on what the page showed before: not for this
	}
	p.filter, p.after, p.example = s.filter, s.after, s.example
	if pageChanged {
		p.loadPage(ctx)
	}
	if exampleChanged {
		p.loadExample(ctx)
	}
}

func (p *Page) OnMount(ctx app.Context) {
	if app.IsClient {
		p.stopKeys = p.listenKeys(ctx)
	}
}

func (p *Page) OnDismount() {
	if p.stopKeys != nil {
		p.stopKeys()
		p.stopKeys = nil
	}
	if p.stopPage != nil {
		p.stopPage()
	}
	p.dropBlobs()
}

func (p *Page) loadRun(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	ui.Fetch(ctx, &p.run, id, func(c context.Context) (api.Run, error) { return client.Default.Run(c, id) }, func(ctx app.Context) {
		p.bench = nil
		if len(p.run.Value.IR) > 0 {
			if b, err := ir.Unmarshal(p.run.Value.IR); err == nil {
				p.bench = b
			}
		}
	})
}

func (p *Page) loadCharts(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	ui.Fetch(ctx, &p.charts, id, func(c context.Context) (api.Charts, error) { return client.Default.Charts(c, id) }, nil)
}

// maxScans bounds how many times a page of a scanned filter (a text search, a confusion
// cell) asks on for more: each answer searched up to the server's budget.
const maxScans = 200

// loadPage fetches the page of results after p.after under the filter. A scanned filter
// may answer fewer results than asked with more to search: the page asks on from there
// until it is full or the run is searched, the table saying "searching…" meanwhile.
func (p *Page) loadPage(ctx app.Context) {
	id := p.id
	if id == "" {
		return
	}
	if p.stopPage != nil {
		p.stopPage()
	}
	c, stop := context.WithCancel(ctx)
	p.stopPage = stop
	q := client.ResultsQuery{Filter: p.filter, After: p.after, Limit: pageSize}
	before := p.countBefore()
	ui.Fetch(ctx, &p.page, id, func(context.Context) (api.ResultPage, error) {
		pg, err := client.Default.Results(c, id, q)
		for n := 0; err == nil && pg.Scanned && pg.Next >= 0 && len(pg.Results) < pageSize && n < maxScans; n++ {
			more := q
			more.After, more.Limit = pg.Next, pageSize-len(pg.Results)
			var next api.ResultPage
			if next, err = client.Default.Results(c, id, more); err == nil {
				pg.Results = append(pg.Results, next.Results...)
				pg.Next, pg.Scanned = next.Next, next.Scanned
			}
		}
		return counted(pg, before), err
	}, func(ctx app.Context) {
		ctx.Defer(p.showReturn)
		p.takePending(ctx)
	})
}

// showReturn scrolls the row of the example the page came back from (p.returnTo) into
// view and focuses it, which highlights it, as the footer promises of Esc; a row not on
// the page shown is let be.
func (p *Page) showReturn(ctx app.Context) {
	if p.returnTo == 0 || p.example >= 0 {
		return
	}
	row := app.Window().Get("document").Call("querySelector", `#results-table tr.result[data-index="`+strconv.Itoa(p.returnTo-1)+`"]`)
	if !row.Truthy() {
		return // not drawn yet (the page comes) or on another page
	}
	p.returnTo = 0
	row.Call("setAttribute", "tabindex", "-1")
	row.Call("scrollIntoView", map[string]any{"block": "center"})
	row.Call("focus", map[string]any{"preventScroll": true})
}

// countBefore is how many results the pages before the one asked for hold, -1 when the
// page does not know (reached by a link to a later page). A page asks until it is full,
// so each page before holds pageSize.
func (p *Page) countBefore() int {
	switch {
	case p.after < 0:
		return 0
	case len(p.stack) > 0 && p.stack[0] < 0:
		return len(p.stack) * pageSize
	}
	return -1
}

// counted is pg with its Total once the run has been searched to its end (Next -1): the
// server does not count a scanned filter, but the page has then seen every match, before
// of them on the pages before. Without it the count said "searching…" for good.
func counted(pg api.ResultPage, before int) api.ResultPage {
	if pg.Total == nil && pg.Next < 0 && before >= 0 {
		n := before + len(pg.Results)
		pg.Total = &n
	}
	return pg
}

// loadExample fetches the example shown in full, with its neighbours under the filter.
func (p *Page) loadExample(ctx app.Context) {
	p.dropBlobs()
	if p.example < 0 || p.id == "" {
		p.detail.Reset()
		return
	}
	id, n, f := p.id, p.example, p.filter
	key := id + "/" + strconv.Itoa(n) + "?" + f.Values().Encode()
	ui.Fetch(ctx, &p.detail, key, func(c context.Context) (api.ExampleDetail, error) {
		return client.Default.Example(c, id, n, f)
	}, func(ctx app.Context) {
		app.Window().Call("scrollTo", 0, 0)
		p.loadBlobs(ctx)
		p.takePending(ctx)
	})
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

// exportName is the file name of run id's export in format under filter f, as the server
// names it (api.ExportFileName): a filtered export says its filter.
func exportName(id, format string, f api.Filter) string {
	return api.ExportFileName(id, format, f.Values())
}

// onExport downloads an export with the tab's token when the server wants one (a plain
// link cannot send it); without a token the link downloads by itself. The run and the
// filter are read when the link is clicked (go-app keeps a handler's first closure).
func (p *Page) onExport(format string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if !client.HasToken() {
			return
		}
		e.PreventDefault()
		id, f := p.id, p.filter
		ctx.Async(func() {
			data, ctype, err := client.Default.FilteredExport(ctx, id, format, f)
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					app.Window().Call("alert", "Export failed: "+ui.ErrText(err))
					return
				}
				ui.SaveBytes(exportName(id, format, f), ctype, data)
			})
		})
	}
}

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
