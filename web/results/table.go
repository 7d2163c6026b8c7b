package results

import (
	"context"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// renderExamples is the filtered, paged table of results with its filters, pager and exports.
func (p *Page) renderExamples() app.UI {
	hasPrev := p.after >= 0
	hasNext := p.page.OK && p.page.Value.Next >= 0
	busy := "loading…"
	if p.filter.Text != "" || p.filter.Field != "" {
		busy = "searching…"
	}
	bar := app.Div().Class("toolbar").Body(
		app.H2().Style("margin", "0").Text("Examples"),
		app.Span().ID("match-count").Class("match-count").Text(p.matchCount()),
		app.Span().Class("sep"),
		app.Button().ID("prev-page").Disabled(!hasPrev || p.page.Busy || p.finding).Text("← Previous").OnClick(p.onPrev),
		app.Span().ID("page-info").Text(p.pageInfo()),
		app.Button().ID("next-page").Disabled(!hasNext || p.page.Busy).Text("Next →").OnClick(p.onNext),
		app.If(p.page.Busy, func() app.UI { return app.Span().ID("searching").Class("muted").Text(busy) }),
		app.If(p.finding, func() app.UI { return app.Span().ID("finding").Class("muted").Text("finding the page before…") }),
		p.renderExports(),
	)
	return app.Section().ID("examples").Class("panel").Body(p.renderFilters(), bar, p.renderRowsNote(), p.renderTable(),
		app.P().Class("muted small").Text("Click a row to open the example; in an example, j/k or ↓/↑ move to the next or previous one under the filter, Esc comes back here."))
}

// matchCount says how many examples the filter selects, of how many: "14 of 36 examples".
func (p *Page) matchCount() string {
	all := -1
	if s := p.summary(); s != nil {
		all = s.Examples
	} else if p.run.OK {
		all = p.run.Value.Done
	}
	if !p.page.OK {
		return ""
	}
	t := p.page.Value.Total
	switch {
	case t != nil && all >= 0 && !p.filter.IsZero():
		return ui.Int(*t) + " of " + ui.Plural(all, "example")
	case t != nil:
		return ui.Plural(*t, "example")
	case p.filter.IsZero() && all >= 0:
		return ui.Plural(all, "example")
	}
	return "searching " + ui.Plural(all, "example") // a scanned filter is not counted
}

func (p *Page) onNext(ctx app.Context, e app.Event) {
	if !p.page.OK || p.page.Value.Next < 0 || p.page.Busy {
		return
	}
	p.goTo(ctx, p.filter, p.page.Value.Next, -1)
}

func (p *Page) onPrev(ctx app.Context, e app.Event) {
	if p.after < 0 || p.page.Busy || p.finding {
		return
	}
	if len(p.stack) > 0 {
		p.goTo(ctx, p.filter, p.stack[len(p.stack)-1], -1)
		return
	}
	// A page reached by a link knows no pages before it: find the one before.
	if p.filter.IsZero() { // every example, in index order: the page before starts pageSize back
		p.goBack(ctx, max(p.after-pageSize, -1))
		return
	}
	first := p.after
	if p.page.OK && len(p.page.Value.Results) > 0 {
		first = p.page.Value.Results[0].Index
	}
	id, f, after := p.id, p.filter, p.after
	p.finding = true
	ctx.Async(func() {
		to, err := pageBefore(ctx, id, f, first)
		ctx.Dispatch(func(ctx app.Context) {
			if !p.finding || p.id != id || p.filter != f || p.after != after {
				return // the page moved on meanwhile
			}
			p.finding = false
			if err != nil {
				to = -1 // the first page, as before
			}
			p.goBack(ctx, to)
		})
	})
}

// goBack goes to the page after to, found by Previous, as the page before this one.
func (p *Page) goBack(ctx app.Context, to int) {
	p.back, p.backTo = true, to
	p.goTo(ctx, p.filter, to, -1)
}

// pageBefore is the after of the page that ends just before example first under filter
// f: the example pageSize+1 before first, walked through the examples' neighbours
// (Prev), each of which the store finds from indexes; -1 (the first page) when the walk
// reaches the start.
func pageBefore(ctx context.Context, id string, f api.Filter, first int) (int, error) {
	at := first
	for range pageSize + 1 {
		d, err := client.Default.Example(ctx, id, at, f)
		if err != nil {
			return -1, err
		}
		if d.Prev < 0 {
			return -1, nil
		}
		at = d.Prev
	}
	return at, nil
}

// renderRowsNote says why the results have no input and expected output, when the server
// says (the dataset changed since the run, or cannot be read now).
func (p *Page) renderRowsNote() app.UI {
	if !p.page.OK || p.page.Value.RowsNote == "" {
		return app.Div().ID("rows-note").Hidden(true)
	}
	return app.P().ID("rows-note").Class("notice").Text(p.page.Value.RowsNote)
}

// pageInfo says which page this is, of how many when the count is known.
func (p *Page) pageInfo() string {
	n := len(p.stack) + 1
	if p.after >= 0 && len(p.stack) == 0 {
		return "Page after #" + strconv.Itoa(p.after)
	}
	count := -1
	if p.page.OK && p.page.Value.Total != nil {
		count = *p.page.Value.Total
	} else if s := p.summary(); s != nil && p.filter.IsZero() && !(p.run.OK && api.Active(p.run.Value.Status)) {
		count = countFor(*s, "")
	}
	if count < 0 {
		return "Page " + strconv.Itoa(n)
	}
	return "Page " + strconv.Itoa(n) + " of " + ui.Int(pageCount(count, pageSize))
}

// renderExports links the server's exports of the run, and compares it with another run.
func (p *Page) renderExports() app.UI {
	link := func(format, label string) app.UI {
		what := "every result"
		if !p.filter.IsZero() {
			what = "the results the filter selects"
		}
		return app.A().ID("export-"+format).Class("button export").Href(client.FilteredExportPath(p.id, format, p.filter)).
			Download(exportName(p.id, format, p.filter)).Title("Download "+what+" as "+label+", with inputs and expected outputs").Text(label).OnClick(p.onExport(format), app.EventScope(format))
	}
	completed := p.run.OK && p.run.Value.Status == api.Completed
	jsonLink := link("json", "JSON")
	if !completed {
		jsonLink = app.A().ID("export-json").Class("button export disabled").Aria("disabled", "true").
			Title("The JSON result document needs a completed run; JSONL and CSV export any run").Text("JSON")
	}
	compare := app.A().ID("compare-link").Class("button").Href(ui.CompareURL(p.id, "")).Text("Compare with…")
	return app.Span().Class("row").Body(
		app.Span().Class("muted").Text("Export"),
		link("jsonl", "JSONL"), link("csv", "CSV"), jsonLink,
		app.If(completed, func() app.UI {
			return ui.ReportButton("report-download", "The self-contained HTML report of this run, the file benchy report writes: opens offline", []string{p.id})
		}),
		app.If(completed, func() app.UI { return compare }),
	)
}

// renderTable is the page of results.
func (p *Page) renderTable() app.UI {
	switch {
	case p.page.Err != nil:
		return app.P().ID("results-error").Class("error").Text(ui.ErrText(p.page.Err))
	case !p.page.OK:
		return app.P().Class("muted").Text("Loading examples…")
	}
	results := p.page.Value.Results
	switch {
	case len(results) == 0 && !p.filter.IsZero():
		return app.P().ID("no-results").Class("muted").Text("No example of this run matches the filter.")
	case len(results) == 0:
		return app.P().ID("no-results").Class("muted").Text("This run has no stored results yet.")
	}
	showIO := false
	for _, r := range results {
		if len(r.Input) > 0 || len(r.Expected) > 0 {
			showIO = true
		}
	}
	head := []app.UI{app.Th().Text("#"), app.Th().Text("Status")}
	if showIO {
		head = append(head, app.Th().Text("Input"), app.Th().Text("Expected"))
	}
	head = append(head, app.Th().Text("Prediction"), app.Th().Text("Fields"), app.Th().Text("Score"), app.Th().Text("Error"))
	rows := make([]app.UI, 0, len(results))
	for _, r := range results {
		rows = append(rows, p.resultRow(r, showIO))
	}
	return app.Table().ID("results-table").Class("data results").Body(
		app.THead().Body(app.Tr().Body(head...)),
		app.TBody().Body(rows...),
	)
}

// resultRow is one example: JSON cells clipped, with the whole value in their title; a
// click opens the example in full.
func (p *Page) resultRow(r api.Result, showIO bool) app.UI {
	open := pageURL(p.id, p.filter, p.after, r.Index)
	cells := []app.UI{
		app.Td().Class("index").Body(app.A().Class("example-link").Href(open).Text(strconv.Itoa(r.Index))),
		app.Td().Body(app.Span().Class("badge " + r.Status).Text(r.Status)),
	}
	var in, out *ir.Field
	if p.bench != nil {
		in, out = &p.bench.Program.Input, &p.bench.Program.Output
	}
	if showIO {
		cells = append(cells, ui.JSONCell("input", ordered(r.Input, in)), ui.JSONCell("expected", ordered(r.Expected, out)))
	}
	cells = append(cells, ui.JSONCell("prediction", ordered(r.Prediction, out)), marksCell(r.FieldScores, decode(r.Expected), decode(r.Prediction)),
		app.Td().Class("example-score").Text(ui.ScorePtr(r.Score)), errorCell(r.Error))
	return app.Tr().Class("result").DataSet("index", r.Index).DataSet("status", r.Status).Body(cells...).
		OnClick(func(ctx app.Context, e app.Event) {
			if e.Get("target").Get("tagName").String() == "A" { // the link navigates by itself
				return
			}
			ctx.Navigate(open)
		}, app.EventScope(open))
}

// marksCell shows ✓ or ✗ for each scored field and, under them, what each wrong field
// expected and got: the JSON cells are clipped, and the wrong value is what a reader
// opens a row for.
func marksCell(fields []api.FieldScore, expected, predicted any) app.UI {
	if len(fields) == 0 {
		return app.Td().Class("marks muted").Text(ui.NoValue)
	}
	marks := make([]app.UI, 0, len(fields))
	var wrong []app.UI
	for _, f := range fields {
		ok := f.Score == 1
		sign, class := "✗", "mark bad"
		if ok {
			sign, class = "✓", "mark ok"
		}
		if f.Weight == 0 {
			class += " unweighted"
		}
		title := ui.Dotted(f.Path) + ": " + map[bool]string{true: "right", false: "wrong"}[ok] +
			" (weight " + strconv.FormatFloat(f.Weight, 'f', -1, 64) + ")"
		marks = append(marks, app.Span().Class(class).DataSet("path", ui.Dotted(f.Path)).Title(title).
			Text(sign+" "+ui.Dotted(f.Path)))
		if !ok {
			ev, pv := clipPair(fullValue(expected, f.Path), fullValue(predicted, f.Path), shortChars)
			wrong = append(wrong, app.Div().Class("wrong-value small").DataSet("path", ui.Dotted(f.Path)).
				Title(ui.Dotted(f.Path)+": expected "+fullValue(expected, f.Path)+", predicted "+fullValue(predicted, f.Path)).Body(
				app.Span().Class("mono").Text(ui.Dotted(f.Path)+": "),
				app.Span().Class("expected-value").Text(ev),
				app.Span().Class("muted").Text(" → "),
				app.Span().Class("predicted-value").Text(pv),
			))
		}
	}
	return app.Td().Class("marks").Body(app.Div().Body(marks...), app.Div().Class("wrong-values").Body(wrong...))
}

// shortChars is how many characters a wrong value's side keeps in the table, clipped
// around where the two sides differ (clipPair).
const shortChars = 40

// fullValue is the value at path as text, up to a title's length.
func fullValue(v any, path []string) string {
	x, ok := at(v, path)
	if !ok || v == nil {
		return "missing"
	}
	s := text(x)
	if s == "" {
		return `""`
	}
	full, _ := ui.Clip(s, ui.TitleChars)
	return full
}

// errorCell shows an example's error code, and its message and field below.
func errorCell(e *api.ResultError) app.UI {
	if e == nil {
		return app.Td().Class("error-code muted").Text("")
	}
	msg := e.Message
	if len(e.Path) > 0 {
		msg = ui.Dotted(e.Path) + ": " + msg
	}
	short, _ := ui.Clip(msg, ui.CellChars)
	full, _ := ui.Clip(msg, ui.TitleChars)
	return app.Td().Class("error-code").Title(full).Body(
		app.Code().Class("bad").Text(e.Code),
		app.Div().Class("muted small").Text(short),
	)
}
