package results

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// statusFilters are the choices of the status filter.
var statusFilters = []struct{ value, label string }{
	{statusAll, "all"}, {api.Valid, "valid"}, {api.InvalidOutput, "invalid_output"}, {api.ExecutionError, "execution_error"},
}

// renderExamples is the paged table of results with its filter, pager and exports.
func (p *Page) renderExamples() app.UI {
	opts := make([]app.UI, 0, len(statusFilters))
	for _, f := range statusFilters {
		opts = append(opts, app.Option().Value(f.value).Text(f.label).Selected(f.value == p.status || f.value == statusAll && p.status == ""))
	}
	hasPrev := len(p.stack) > 0
	hasNext := p.page.OK && p.page.Value.Next >= 0
	bar := app.Div().Class("toolbar").Body(
		app.H2().Style("margin", "0").Text("Examples"),
		app.Label().For("status-filter").Text("Status"),
		app.Select().ID("status-filter").Body(opts...).OnChange(p.onFilter),
		app.Button().ID("prev-page").Disabled(!hasPrev || p.page.Busy).Text("← Previous").OnClick(p.onPrev),
		app.Span().ID("page-info").Text(p.pageInfo()),
		app.Button().ID("next-page").Disabled(!hasNext || p.page.Busy).Text("Next →").OnClick(p.onNext),
		app.If(p.page.Busy, func() app.UI { return app.Span().Class("muted").Text("loading…") }),
		app.Span().Class("sep"),
		p.renderExports(),
	)
	return app.Section().ID("examples").Class("panel").Body(bar, p.renderRowsNote(), p.renderTable())
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
	s := p.summary()
	if s == nil || (p.run.OK && api.Active(p.run.Value.Status)) {
		return "Page " + strconv.Itoa(n)
	}
	count := countFor(*s, p.status)
	return "Page " + strconv.Itoa(n) + " of " + ui.Int(pageCount(count, pageSize)) + " · " + ui.Plural(count, "example")
}

// renderExports links the server's exports of the run, and compares it with another run.
func (p *Page) renderExports() app.UI {
	link := func(format, label string) app.UI {
		return app.A().ID("export-"+format).Class("button export").Href(client.ExportPath(p.id, format)).
			Download(exportName(p.id, format)).Title("Download every result as "+label).Text(label).OnClick(p.onExport(format), app.EventScope(format))
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
	case len(results) == 0 && p.status != "":
		return app.P().ID("no-results").Class("muted").Text("No example of this run is " + ui.StatusText(p.status) + ".")
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
		rows = append(rows, resultRow(r, showIO))
	}
	return app.Table().ID("results-table").Class("data results").Body(
		app.THead().Body(app.Tr().Body(head...)),
		app.TBody().Body(rows...),
	)
}

// resultRow is one example: JSON cells clipped, with the whole value in their title.
func resultRow(r api.Result, showIO bool) app.UI {
	cells := []app.UI{
		app.Td().Class("index").Text(strconv.Itoa(r.Index)),
		app.Td().Body(app.Span().Class("badge " + r.Status).Text(r.Status)),
	}
	if showIO {
		cells = append(cells, ui.JSONCell("input", r.Input), ui.JSONCell("expected", r.Expected))
	}
	cells = append(cells, ui.JSONCell("prediction", r.Prediction), marksCell(r.FieldScores),
		app.Td().Class("example-score").Text(ui.ScorePtr(r.Score)), errorCell(r.Error))
	return app.Tr().Class("result").DataSet("index", r.Index).DataSet("status", r.Status).Body(cells...)
}

// marksCell shows ✓ or ✗ for each scored field.
func marksCell(fields []api.FieldScore) app.UI {
	if len(fields) == 0 {
		return app.Td().Class("marks muted").Text(ui.NoValue)
	}
	marks := make([]app.UI, 0, len(fields))
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
	}
	return app.Td().Class("marks").Body(marks...)
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
