package results

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

func (p *Page) Render() app.UI {
	if p.id == "" {
		return ui.Shell("/results", app.H1().Text("Results"), app.Div().ID("no-run").Class("notice").Body(
			app.Text("No run chosen. Open a run's results from the "), app.A().Href("/runs").Text("Runs page"), app.Text("."),
		))
	}
	return ui.Shell("/results",
		app.Div().ID("results-page").DataSet("run", p.id).DataSet("ready", ui.ReadyFlag(p.ready())).Body(
			app.H1().Body(app.Text("Results of run "), app.Span().Class("mono").Text(p.id)),
			app.Style().Text(css),
			p.renderBanner(),
			app.If(p.example >= 0 && p.run.Err == nil, p.renderExample),
			p.renderHead(),
			app.If(p.run.Err == nil && p.example < 0, func() app.UI {
				return app.Div().Body(p.renderCharts(), p.renderExamples())
			}),
		),
	)
}

// ready reports whether the page shows the run and a page of its results (or why not).
func (p *Page) ready() bool {
	return p.run.Err != nil || p.run.OK && !p.page.Busy && p.page.Answered()
}

// renderHead shows the run: where it comes from, its score and its counts.
func (p *Page) renderHead() app.UI {
	if p.run.Err != nil {
		return app.Div().ID("results-error").Class("notice error").Text(ui.ErrText(p.run.Err))
	}
	if !p.run.OK {
		return app.P().Class("muted").Text("Loading the run…")
	}
	r := &p.run.Value
	rep := r.DecodeReport()
	meta := app.P().ID("run-meta").Class("row").Body(
		runStatus(r),
		app.Span().Body(app.Text("benchmark "), app.A().Href(ui.RunsURL(r.Benchmark, r.ID)).Text(r.Benchmark)),
		app.If(r.System != nil && r.System.Label != "", func() app.UI {
			return app.Span().Class("nowrap").Body(app.Text("AI-system "), app.Span().ID("run-system").Body(ui.SystemName(r.System.Label, r.System.Hash)))
		}),
		app.Span().Class("nowrap").Body(app.Text("binding "), app.Code().Text(r.Binding)),
		app.Span().Class("muted").Text("created "+ui.Time(r.CreatedAt)),
		app.If(r.StartedAt != nil && r.FinishedAt != nil, func() app.UI {
			return app.Span().Class("muted").Text("took " + ui.Duration(r.FinishedAt.Sub(*r.StartedAt)))
		}),
		app.If(r.Options.Limit > 0, func() app.UI {
			return app.Span().Class("muted").Text("first " + ui.Int(r.Options.Limit) + " examples")
		}),
	)
	digest := "not recorded" // a run stored before Benchy recorded datasets
	if api.Active(r.Status) || r.Status == api.Aborted {
		digest = "not yet known" // the validation pass records it
	}
	systemHash := ""
	if r.System != nil {
		systemHash = r.System.Hash
	}
	ids := app.P().ID("run-identities").Class("row small").Body(
		ui.BenchmarkHash.Show("run-benchmark-hash", r.BenchmarkHash),
		ui.DatasetDigest.ShowOr("run-dataset-digest", r.DatasetDigest, digest),
		ui.SystemHash.Show("run-system-hash", systemHash),
		ui.IRHash.Show("run-ir-hash", r.IRHash),
	)
	score := app.Div().Class("card score-card").Body(
		app.Div().Class("muted").Text("Benchmark score"),
		app.Div().ID("score").Class("score").Text(ui.NoValue),
		app.Div().ID("ci").Class("muted").Text("no score: the run is "+ui.StatusText(r.Status)),
	)
	if rep != nil {
		ci := "no interval"
		if iv := rep.Confidence; iv != nil {
			ci = ui.Level(*iv) + " " + ui.Interval(*iv) + " · " + iv.Method
		}
		score = app.Div().Class("card score-card").Body(
			app.Div().Class("muted").Text("Benchmark score"),
			app.Div().ID("score").Class("score").DataSet("value", ui.RawScore(rep.BenchmarkScore)).Text(ui.ScorePtr(rep.BenchmarkScore)),
			app.Div().ID("ci").Class("muted").Text(ci),
		)
	}
	if h := r.Health; h != nil && h.Failed {
		score = app.Div().Class("card score-card not-meaningful").Body(
			app.Div().Class("muted").Text("Benchmark score"),
			app.Div().ID("score").Class("score").DataSet("meaningful", "no").Text(scoreText(rep)),
			app.Div().ID("ci").Class("muted").Text("not meaningful: the run failed, most examples did not execute"),
		)
	}
	var notes []app.UI
	if api.Active(r.Status) {
		notes = append(notes, app.Div().Class("notice").Body(
			app.Text("This run is "+r.Status+": the results stored so far are shown. "),
			app.A().Href(ui.RunsURL(r.Benchmark, r.ID)).Text("Follow it live"),
		))
	}
	if r.Status == api.Cancelled && r.Reason == api.ReasonBudget {
		notes = append(notes, app.Div().ID("run-budget").Class("notice").Body(
			app.Text("Cancelled: budget reached. "+ui.BudgetHint+" "),
			app.A().ID("run-budget-resume").Href(ui.RunsURL(r.Benchmark, r.ID)).Text("Resume it with a larger budget on the runs page"),
		))
	} else if api.Resumable(r.Status) {
		notes = append(notes, app.Div().Class("notice").Body(
			app.Text("This run was "+r.Status+": the "+ui.Plural(r.Done, "result")+" stored so far are shown. "),
			app.A().Href(ui.RunsURL(r.Benchmark, r.ID)).Text("Resume it"),
			app.Text(" to evaluate only the missing examples."),
		))
	}
	if r.Error != nil {
		notes = append(notes, app.Div().ID("run-failure").Class("notice error").Text(ui.RunError(r.Error)))
	}
	return app.Section().Body(
		meta,
		ids,
		app.Div().Class("results-head").Body(score, p.renderCounts(rep)),
		app.Div().Body(notes...),
	)
}

// selectedCount reports whether the count card of status (total for "") reads as the
// table's selection under f: a status its filter names, total only when the table shows
// every example (in any order), not under another filter.
func selectedCount(f api.Filter, status string) bool {
	if status != "" {
		return f.Status == status
	}
	f.Sort = ""
	return f.IsZero()
}

// renderCounts shows the examples by status; each count statusFilters the table.
func (p *Page) renderCounts(rep *api.Report) app.UI {
	s := p.summary()
	known := s != nil
	if s == nil { // a run stopped before it reported: only what the store holds is known
		s = &api.Summary{Examples: p.run.Value.Done}
	}
	card := func(status, label string, n int, class string) app.UI {
		value := ui.Int(n)
		if !known && status != "" {
			value = ui.NoValue
		}
		c := app.A().Class("card count "+class).DataSet("status", status).Href(pageURL(p.id, api.Filter{Status: status}, -1, -1)).Body(
			app.Div().Class("muted").Text(label),
			app.Div().Class("big").Text(value),
		)
		if selectedCount(p.filter, status) {
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
			app.Div().Class("big").Text(ui.Int(u.InputTokens)+" / "+ui.Int(u.OutputTokens)),
			app.Div().Class("muted").Text("mean latency "+strconv.FormatFloat(u.LatencyMS/float64(u.Examples), 'f', 0, 64)+" ms"),
		))
	}
	if rep != nil {
		cards = append(cards, costCards(rep)...)
	}
	return app.Div().ID("counts").Class("cards").Body(cards...)
}

// scoreText is a report's score, greyed out by the caller when it is not meaningful.
func scoreText(rep *api.Report) string {
	if rep == nil {
		return ui.NoValue
	}
	return ui.ScorePtr(rep.BenchmarkScore)
}

// runStatus is the run's status pill: red and "completed · failed infrastructure" beside
// the banner of a run that failed as infrastructure, not a green "completed".
func runStatus(r *api.Run) app.UI {
	class, text := ui.RunStatus(r, r.Status)
	return app.Span().ID("run-status").Class("badge " + class).Text(text)
}
