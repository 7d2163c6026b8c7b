package web

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

func (p *ResultsPage) Render() app.UI {
	if p.id == "" {
		return shell("/results", app.H1().Text("Results"), app.Div().ID("no-run").Class("notice").Body(
			app.Text("No run chosen. Open a run's results from the "), app.A().Href("/runs").Text("Runs page"), app.Text("."),
		))
	}
	return shell("/results",
		app.Div().ID("results-page").DataSet("run", p.id).DataSet("ready", readyFlag(p.ready())).Body(
			app.H1().Body(app.Text("Results of run "), app.Span().Class("mono").Text(p.id)),
			p.renderHead(),
			app.If(p.runErr == nil, func() app.UI {
				return app.Div().Body(p.renderDimensions(), p.renderExamples())
			}),
		),
	)
}

// ready reports whether the page shows the run and a page of its results (or why not).
func (p *ResultsPage) ready() bool {
	return p.runErr != nil || p.run != nil && !p.loading && (p.page != nil || p.pageErr != nil)
}

// renderHead shows the run: where it comes from, its score and its counts.
func (p *ResultsPage) renderHead() app.UI {
	if p.runErr != nil {
		return app.Div().ID("results-error").Class("notice error").Text(apiErrText(p.runErr))
	}
	if p.run == nil {
		return app.P().Class("muted").Text("Loading the run…")
	}
	r := p.run
	rep := r.DecodeReport()
	meta := app.P().ID("run-meta").Class("row").Body(
		app.Span().ID("run-status").Class("badge "+r.Status).Text(r.Status),
		app.Span().Body(app.Text("benchmark "), app.A().Href(runsURL(r.Benchmark, r.ID)).Text(r.Benchmark)),
		app.Span().Body(app.Text("binding "), app.Code().Text(r.Binding)),
		app.Span().Class("muted").Text("created "+fmtTime(r.CreatedAt)),
		app.If(r.StartedAt != nil && r.FinishedAt != nil, func() app.UI {
			return app.Span().Class("muted").Text("took " + fmtDuration(r.FinishedAt.Sub(*r.StartedAt)))
		}),
		app.If(r.Options.Limit > 0, func() app.UI {
			return app.Span().Class("muted").Text("first " + fmtInt(r.Options.Limit) + " examples")
		}),
		app.Span().Class("hash").Title("IR hash").Text(r.IRHash),
	)
	score := app.Div().Class("card score-card").Body(
		app.Div().Class("muted").Text("Benchmark score"),
		app.Div().ID("score").Class("score").Text(noValue),
		app.Div().ID("ci").Class("muted").Text("no score: the run is "+statusText(r.Status)),
	)
	if rep != nil {
		ci := "no interval"
		if iv := rep.Confidence; iv != nil {
			ci = fmtLevel(*iv) + " " + fmtInterval(*iv) + " · " + iv.Method
		}
		score = app.Div().Class("card score-card").Body(
			app.Div().Class("muted").Text("Benchmark score"),
			app.Div().ID("score").Class("score").DataSet("value", rawScore(rep.BenchmarkScore)).Text(fmtScorePtr(rep.BenchmarkScore)),
			app.Div().ID("ci").Class("muted").Text(ci),
		)
	}
	var notes []app.UI
	if api.Active(r.Status) {
		notes = append(notes, app.Div().Class("notice").Body(
			app.Text("This run is "+r.Status+": the results stored so far are shown. "),
			app.A().Href(runsURL(r.Benchmark, r.ID)).Text("Follow it live"),
		))
	}
	if api.Resumable(r.Status) {
		notes = append(notes, app.Div().Class("notice").Body(
			app.Text("This run was "+r.Status+": the "+pluralize(r.Done, "result")+" stored so far are shown. "),
			app.A().Href(runsURL(r.Benchmark, r.ID)).Text("Resume it"),
			app.Text(" to evaluate only the missing examples."),
		))
	}
	if r.Error != nil {
		notes = append(notes, app.Div().ID("run-failure").Class("notice error").Text(r.Error.Code+": "+r.Error.Message))
	}
	return app.Section().Body(
		meta,
		app.Div().Class("results-head").Body(score, p.renderCounts(rep)),
		app.Div().Body(notes...),
	)
}

// renderCounts shows the examples by status; each count statusFilters the table.
func (p *ResultsPage) renderCounts(rep *api.Report) app.UI {
	s := p.summary()
	known := s != nil
	if s == nil { // a run stopped before it reported: only what the store holds is known
		s = &api.Summary{Examples: p.run.Done}
	}
	card := func(status, label string, n int, class string) app.UI {
		value := fmtInt(n)
		if !known && status != "" {
			value = noValue
		}
		c := app.A().Class("card count "+class).DataSet("status", status).Href(resultsURL(p.id, status)).Body(
			app.Div().Class("muted").Text(label),
			app.Div().Class("big").Text(value),
		)
		if status == p.status {
			c = c.Class("selected")
		}
		return c
	}
	cards := []app.UI{
		card(api.Valid, "valid", s.Valid, "ok"),
		card(api.InvalidOutput, "invalid_output", s.InvalidOutputs, "bad"),
		card(api.ExecutionError, "execution_error", s.ExecutionErrors, "warn"),
		card("", map[bool]string{true: "total", false: "stored results"}[known], s.Examples, ""),
	}
	if rep != nil && rep.Usage != nil && rep.Usage.Examples > 0 {
		u := rep.Usage
		cards = append(cards, app.Div().ID("usage").Class("card").Body(
			app.Div().Class("muted").Text("tokens in / out"),
			app.Div().Class("big").Text(fmtInt(u.InputTokens)+" / "+fmtInt(u.OutputTokens)),
			app.Div().Class("muted").Text("mean latency "+strconv.FormatFloat(u.LatencyMS/float64(u.Examples), 'f', 0, 64)+" ms"),
		))
	}
	return app.Div().ID("counts").Class("cards").Body(cards...)
}

// renderDimensions charts each scoring dimension's accuracy among valid examples.
func (p *ResultsPage) renderDimensions() app.UI {
	if p.run == nil {
		return app.Div()
	}
	rep := p.run.DecodeReport()
	var bars []app.UI
	switch {
	case rep == nil:
		bars = []app.UI{app.P().Class("muted").Text("Accuracy per dimension appears when the run completes.")}
	case len(rep.Dimensions) == 0:
		bars = []app.UI{app.P().Class("muted").Text("No dimensions.")}
	}
	if rep != nil {
		for _, d := range rep.Dimensions {
			value, w, title := noValue, "0%", "no valid example"
			if d.Accuracy != nil {
				value, w = fmtPct(*d.Accuracy), barWidth(*d.Accuracy)
				title = fmtInt(d.Correct) + " of " + fmtInt(d.Valid) + " valid examples right"
			}
			bars = append(bars, app.Div().Class("bar").DataSet("path", dotted(d.Path)).Title(title).Body(
				app.Span().Class("label").Body(
					app.Span().Class("mono").Text(dotted(d.Path)),
					app.Span().Class("muted").Text(" ×"+strconv.FormatFloat(d.Weight, 'f', -1, 64)),
				),
				app.Div().Class("track").Body(app.Div().Class("fill").Style("width", w)),
				app.Span().Class("value").Text(value),
			))
		}
	}
	body := app.Div().ID("dimensions").Class("bars").Body(bars...)
	return app.Section().Class("panel").Style("margin-bottom", "12px").Body(
		app.H2().Text("Accuracy per dimension"), app.P().Class("muted").Text("Among valid examples: invalid outputs and execution errors are counted in the score, not here."), body)
}
