package grid

import (
	"encoding/json"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// The choices of the filters: "" (the placeholder's value) is every example.
var (
	filters = []struct{ value, label string }{
		{ui.Placeholder, "every example"}, {api.FilterDisagree, "systems disagree"}, {api.FilterAllWrong, "all wrong"},
	}
	statuses = []struct{ value, label string }{
		{ui.Placeholder, "any status"}, {api.Valid, "some valid"}, {api.InvalidOutput, "some invalid output"}, {api.ExecutionError, "some execution error"},
	}
)

func (p *Page) Render() app.UI {
	return ui.Shell("/leaderboard", app.Div().ID("grid-page").DataSet("ready", ui.ReadyFlag(p.ready())).Body(
		app.Style().Text(gridCSS),
		app.H1().Text("Examples side by side"),
		app.If(p.bench == "", func() app.UI {
			return app.Div().Class("notice").Body(app.Text("Choose a benchmark's "), app.A().Href(ui.LeaderboardURL("", "")).Text("leaderboard"), app.Text(" first."))
		}).Else(p.renderGrid),
	))
}

func (p *Page) renderGrid() app.UI {
	sel := func(id, current string, choices []struct{ value, label string }, on app.EventHandler) app.UI {
		opts := make([]app.UI, 0, len(choices))
		for _, c := range choices {
			opts = append(opts, app.Option().Value(c.value).Text(c.label).Selected(c.value == current || c.value == ui.Placeholder && current == ""))
		}
		return app.Select().ID(id).Body(opts...).OnChange(on)
	}
	g := &p.page.Value
	hasNext := p.page.OK && g.Next >= 0
	info := "Page " + strconv.Itoa(len(p.stack)+1)
	if p.page.OK {
		info += " of " + ui.Int(max(1, (g.Matched+pageSize-1)/pageSize)) + " · " + ui.Plural(g.Matched, "example")
	}
	bar := app.Div().Class("toolbar").Body(
		app.H2().Class("mono").Text(p.bench),
		app.A().ID("grid-board-link").Href(ui.LeaderboardURL(p.bench, p.dataset)).Text("← leaderboard"),
		app.Span().Class("sep"),
		app.Label().For("grid-filter").Text("Show"),
		sel("grid-filter", p.filter, filters, p.onFilter),
		app.Label().For("grid-status").Text("Status"),
		sel("grid-status", p.status, statuses, p.onStatus),
		app.Button().ID("grid-prev").Disabled(len(p.stack) == 0 || p.page.Busy).Text("← Previous").OnClick(p.onPrev),
		app.Span().ID("grid-info").Class("muted").Text(info),
		app.Button().ID("grid-next").Disabled(!hasNext || p.page.Busy).Text("Next →").OnClick(p.onNext),
		app.If(p.page.Busy, func() app.UI { return app.Span().Class("muted").Text("loading…") }),
	)
	var note app.UI = app.Div().ID("rows-note").Hidden(true)
	if p.page.OK && g.RowsNote != "" {
		note = app.P().ID("rows-note").Class("notice").Text(g.RowsNote)
	}
	return app.Section().ID("grid-panel").Class("panel").Body(bar, note, p.renderTable())
}

// renderTable is the page of examples: input, expected, then one column per system.
func (p *Page) renderTable() app.UI {
	switch {
	case p.page.Err != nil:
		return app.Div().ID("grid-error").Class("notice error").Body(
			app.If(ui.ErrCode(p.page.Err) != "", func() app.UI { return app.Code().Text(ui.ErrCode(p.page.Err) + ": ") }),
			app.Text(ui.ErrText(p.page.Err)),
		)
	case !p.page.OK:
		return app.P().Class("muted").Text("Loading examples…")
	}
	g := &p.page.Value
	switch {
	case len(g.Systems) == 0:
		return app.P().ID("grid-empty").Class("muted").Body(app.Text("No AI-system has a completed run of this benchmark on this dataset yet: "),
			app.A().Href(ui.LeaderboardURL(p.bench, p.dataset)).Text("run them from the leaderboard"), app.Text("."))
	case len(g.Rows) == 0:
		return app.P().ID("grid-empty").Class("muted").Text("No example matches these filters.")
	}
	head := []app.UI{app.Th().Text("#"), app.Th().Text("Input"), app.Th().Text("Expected")}
	for _, s := range g.Systems {
		head = append(head, app.Th().Class("system-col").Body(
			app.Div().Body(ui.SystemName(s.System, "")),
			app.A().Class("mono muted small nowrap").Href(ui.ResultsURL(s.Run, "")).Title("run "+s.Run).Text("run "+ui.ShortID(s.Run)),
		))
	}
	rows := make([]app.UI, 0, len(g.Rows))
	for _, r := range g.Rows {
		cells := []app.UI{app.Td().Class("index").Text(strconv.Itoa(r.Index)), ui.JSONCell("input", r.Input), ui.JSONCell("expected", r.Expected)}
		for i, c := range r.Cells {
			label := ""
			if i < len(g.Systems) {
				label = g.Systems[i].System
			}
			cells = append(cells, renderCell(c, label))
		}
		rows = append(rows, app.Tr().Class("grid-row").DataSet("index", r.Index).Body(cells...))
	}
	return app.Div().Class("grid-scroll").Body(app.Table().ID("grid").Class("data grid").Style("min-width", minWidth(len(g.Systems))).Body(
		columns(len(g.Systems)),
		app.THead().Body(app.Tr().Body(head...)),
		app.TBody().Body(rows...),
	))
}

// The grid's columns have set widths (table-layout: fixed), the same on every page
// whatever the examples hold: the index, input and expected, then the systems sharing the
// rest equally. Below minWidth the grid scrolls sideways rather than squeeze them.
const (
	indexWidth  = 52  // px
	fieldWidth  = 24  // % of the table, input and expected each
	minField    = 200 // px, input and expected each
	minSystemPx = 170 // px, each system
)

// columns is the grid's colgroup for n systems.
func columns(n int) app.UI {
	cols := []app.UI{
		app.Col().Class("index").Style("width", strconv.Itoa(indexWidth)+"px"),
		app.Col().Style("width", strconv.Itoa(fieldWidth)+"%"),
		app.Col().Style("width", strconv.Itoa(fieldWidth)+"%"),
	}
	share := strconv.FormatFloat(float64(100-2*fieldWidth)/float64(max(1, n)), 'f', 3, 64) + "%"
	for range n {
		cols = append(cols, app.Col().Class("system").Style("width", share))
	}
	return app.ColGroup().Body(cols...)
}

// minWidth is the width below which the grid of n systems scrolls sideways.
func minWidth(n int) string {
	return strconv.Itoa(indexWidth+2*minField+n*minSystemPx) + "px"
}

// renderCell is one system's answer to one example: the prediction and a mark per field,
// or the status and error of an example without one.
func renderCell(c api.GridCell, system string) app.UI {
	right := allRight(c)
	td := app.Td().Class(cellClass(c)).DataSet("status", c.Status).DataSet("system", system).DataSet("right", right)
	if c.Status != api.Valid {
		body := []app.UI{app.Span().Class("badge " + c.Status).Text(ui.StatusText(c.Status))}
		if c.Error != nil {
			msg := c.Error.Message
			if len(c.Error.Path) > 0 {
				msg = ui.Dotted(c.Error.Path) + ": " + msg
			}
			short, _ := ui.Clip(msg, ui.CellChars)
			full, _ := ui.Clip(msg, ui.TitleChars)
			body = append(body, app.Div().Class("small").Title(full).Body(app.Code().Class("bad").Text(c.Error.Code+" "), app.Span().Class("muted").Text(short)))
		}
		if s := ui.CompactJSON(c.Prediction); s != "" && s != "null" {
			short, _ := ui.Clip(s, ui.CellChars)
			body = append(body, app.Div().Class("mono small muted").Text(short))
		}
		return td.Body(body...)
	}
	pred := ui.CompactJSON(c.Prediction)
	if c.Clipped { // the server sent the start of a long prediction, as a JSON string
		var start string
		if json.Unmarshal(c.Prediction, &start) == nil {
			pred = start
		}
	}
	short, clipped := ui.Clip(pred, ui.CellChars)
	predEl := app.Div().Class("mono prediction").Text(short)
	if clipped {
		full, _ := ui.Clip(pred, ui.TitleChars)
		predEl = predEl.Title(full)
	}
	if c.Clipped {
		predEl = app.Div().Class("mono prediction clipped").Title("the start of a longer answer: the run's export (JSON, JSONL or CSV) has it whole").Body(
			app.Span().Class("badge").Text("clipped"), app.Text(" "+short))
	}
	marks := make([]app.UI, 0, len(c.Fields))
	for _, f := range c.Fields {
		ok := f.Score == 1
		sign, mc := "✗", "mark bad"
		if ok {
			sign, mc = "✓", "mark ok"
		}
		marks = append(marks, app.Span().Class(mc).DataSet("path", ui.Dotted(f.Path)).
			Title(ui.Dotted(f.Path)+": "+map[bool]string{true: "right", false: "wrong"}[ok]).Text(sign+" "+ui.Dotted(f.Path)))
	}
	return td.Body(predEl, app.Div().Class("marks").Body(marks...))
}

// allRight reports whether a cell is valid with every field right.
func allRight(c api.GridCell) bool {
	right := c.Status == api.Valid && len(c.Fields) > 0
	for _, f := range c.Fields {
		right = right && f.Score == 1
	}
	return right
}

// cellClass is a cell's classes: its status, and for a valid one right or wrong.
func cellClass(c api.GridCell) string {
	class := "cell " + c.Status
	if c.Status == api.Valid {
		class += map[bool]string{true: " right", false: " wrong"}[allRight(c)]
	}
	return class
}

// gridCSS lays out the grid over the kit's table.
const gridCSS = `
#grid-panel h2.mono { font-size: 15px; }
.grid-scroll { overflow-x: auto; }
table.grid { table-layout: fixed; }
table.grid td, table.grid th { overflow: hidden; overflow-wrap: anywhere; }
table.grid th.system-col { --clip: 100%; }
table.grid td.index { font-variant-numeric: tabular-nums; color: var(--muted); }
table.grid th.system-col { border-left: 1px solid var(--line); }
table.grid td.cell { border-left: 1px solid var(--line); }
table.grid td.cell.right { background: #f1f9f4; }
table.grid td.cell.wrong { background: #fdf5f4; }
table.grid td.cell.invalid_output, table.grid td.cell.execution_error { background: #fff8ec; }
table.grid td.cell .marks { margin-top: 2px; }
table.grid td.cell .mark { font-size: 12px; }
`
