package results

import (
	"cmp"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// The filters find failures fast: each one is a key of the page's URL, which the page
// reads back (OnNav), so that a reload, a shared link and back/forward keep them.

// statusFilters are the choices of the status filter.
var statusFilters = []struct{ value, label string }{
	{ui.Placeholder, "all"}, {api.Valid, "valid"}, {api.InvalidOutput, "invalid_output"}, {api.ExecutionError, "execution_error"},
}

// setFilter shows the first page of the results f selects.
func (p *Page) setFilter(ctx app.Context, f api.Filter) { p.goTo(ctx, f, -1, -1) }

// renderFilters is the filter bar above the table.
func (p *Page) renderFilters() app.UI {
	f := p.filter
	option := func(value, label, current string) app.UI {
		return app.Option().Value(value).Text(label).Selected(value == current || value == ui.Placeholder && current == "")
	}
	statuses := make([]app.UI, 0, len(statusFilters))
	for _, s := range statusFilters {
		statuses = append(statuses, option(s.value, s.label, f.Status))
	}
	wrong := []app.UI{option(ui.Placeholder, "any", f.Wrong)}
	if p.bench != nil {
		for _, d := range p.bench.Scoring.Dimensions {
			k := api.DimensionKey(d.Path)
			wrong = append(wrong, option(k, k, f.Wrong))
		}
	}
	codes := []app.UI{option(ui.Placeholder, "any", f.Code)}
	if p.charts.OK {
		for _, c := range p.charts.Value.Codes {
			codes = append(codes, option(c.Code, c.Code+" ("+ui.Int(c.Count)+")", f.Code))
		}
	}
	if f.Code != "" && !p.charts.OK {
		codes = append(codes, option(f.Code, f.Code, f.Code))
	}
	imperfect := app.Label().ID("imperfect-toggle").Class("toggle").Body(
		app.Input().ID("filter-imperfect").Type("checkbox").Checked(f.Imperfect).OnChange(p.onImperfect),
		app.Span().Text(" Only imperfect examples (score < 1)"),
		app.If(p.imperfectCount() >= 0, func() app.UI {
			return app.Span().ID("imperfect-count").Class("count").Text(ui.Int(p.imperfectCount()))
		}),
	)
	controls := app.Div().ID("filters").Class("filters").Body(
		imperfect,
		app.Span().Class("filter").Body(app.Label().For("status-filter").Text("Status"),
			app.Select().ID("status-filter").Body(statuses...).OnChange(p.onSelect(func(f *api.Filter, v string) { f.Status = v }))),
		app.Span().Class("filter").Body(app.Label().For("wrong-filter").Text("Dimension wrong"),
			app.Select().ID("wrong-filter").Body(wrong...).OnChange(p.onSelect(func(f *api.Filter, v string) { f.Wrong = v }))),
		app.Span().Class("filter").Body(app.Label().For("code-filter").Text("Error code"),
			app.Select().ID("code-filter").Body(codes...).OnChange(p.onSelect(func(f *api.Filter, v string) { f.Code = v }))),
		app.Span().Class("filter").Body(app.Label().For("search").Text("Search"),
			app.Input().ID("search").Type("search").Placeholder("text in input, expected, prediction, error").
				Value(p.text).OnInput(p.onSearch)),
		app.Span().Class("filter").Body(app.Label().For("sort").Text("Sort by"),
			app.Select().ID("sort").Body(
				option(ui.Placeholder, "index", f.Sort),
				option(api.SortScore, "score, lowest first", f.Sort),
			).OnChange(p.onSelect(func(f *api.Filter, v string) { f.Sort = v }))),
		app.If(f.Field != "", func() app.UI {
			return app.Span().ID("cell-filter").Class("chip").Body(
				app.Span().Class("chip-text").Text(f.Field+": expected "+f.Expected+", predicted "+f.Predicted),
				app.Button().Class("chip-x").Title("Show every example again").Text("×").OnClick(p.onClearCell),
			)
		}),
		app.If(f.ScoreMin != "" || f.ScoreMax != "", func() app.UI {
			return app.Span().ID("score-filter").Class("chip").Body(
				app.Span().Class("chip-text").Text(scoreRangeText(f)),
				app.Button().Class("chip-x").Title("Show every score again").Text("×").OnClick(p.onClearScore),
			)
		}),
		app.If(!f.IsZero(), func() app.UI {
			return app.A().ID("clear-filters").Href(pageURL(p.id, api.Filter{}, -1, -1)).Text("clear filters")
		}),
	)
	return controls
}

// imperfectCount is how many examples score below 1, from the charts: the examples less
// the perfect ones; -1 before the charts come.
func (p *Page) imperfectCount() int {
	c := p.charts.Value
	if !p.charts.OK || len(c.Histogram) != 11 {
		return -1
	}
	return c.Summary.Examples - c.Histogram[10]
}

func (p *Page) onImperfect(ctx app.Context, e app.Event) {
	f := p.filter
	f.Imperfect = ctx.JSSrc().Get("checked").Bool()
	p.setFilter(ctx, f)
}

// onSelect sets the filter's value that set sets to a select's choice.
func (p *Page) onSelect(set func(*api.Filter, string)) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		f := p.filter
		set(&f, ui.Selected(ctx))
		p.setFilter(ctx, f)
	}
}

func (p *Page) onClearScore(ctx app.Context, e app.Event) {
	f := p.filter
	f.ScoreMin, f.ScoreMax = "", ""
	p.setFilter(ctx, f)
}

// scoreRangeText is the score range of f as its chip says it: "score in [0.4, 0.5)",
// "score 1".
func scoreRangeText(f api.Filter) string {
	lo, hi := cmp.Or(f.ScoreMin, "0"), cmp.Or(f.ScoreMax, "1")
	switch {
	case lo == "1" && hi == "1":
		return "score 1 (perfect)"
	case hi == "1" && !f.Imperfect:
		return "score in [" + lo + ", 1]"
	}
	return "score in [" + lo + ", " + hi + ")"
}

func (p *Page) onClearCell(ctx app.Context, e app.Event) {
	f := p.filter
	f.Field, f.Expected, f.Predicted = "", "", ""
	p.setFilter(ctx, f)
}

// onSearch applies the search box searchDelay after the last keystroke: one request for
// a word typed, not one a letter.
func (p *Page) onSearch(ctx app.Context, e app.Event) {
	p.text = ctx.JSSrc().Get("value").String()
	p.typed++
	typed := p.typed
	ctx.After(searchDelay, func(ctx app.Context) {
		if typed != p.typed || p.text == p.filter.Text {
			return
		}
		f := p.filter
		f.Text = p.text
		p.setFilter(ctx, f)
	})
}
