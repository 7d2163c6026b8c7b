package runs

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// renderLive shows the followed run: status, progress, rate, and how it ended.
func (p *Page) renderLive() app.UI {
	l := &p.live
	if l.id == "" {
		return app.Div().ID("live").Hidden(true)
	}
	r := l.run
	status := r.Status
	if !l.loaded {
		status = "loading"
	}
	head := app.Div().Class("toolbar").Body(
		app.H2().Style("margin", "0").Body(app.Text("Run "), app.Span().Class("mono").Title(l.id).Text(l.id)),
		app.Span().ID("run-status").Class("badge "+r.Status).Text(status),
		app.Span().Class("sep"),
		app.If(api.Active(r.Status), func() app.UI {
			return app.Button().ID("cancel").Class("danger").Text("Cancel").OnClick(p.onAction("cancel"))
		}),
		app.If(api.Resumable(r.Status), func() app.UI {
			return app.Button().ID("resume").Class("primary").Text("Resume").
				Title("Evaluate only the examples this run has no result for").OnClick(p.onAction("resume"))
		}),
		app.A().ID("run-results").Class("button").Href(ui.ResultsURL(l.id, "")).Text("Results"),
	)
	rate := rateOf(r)
	counts := app.Span().Class("muted").Text("")
	if s := r.Summary; s != nil {
		counts = app.Span().ID("run-counts").Class("muted").Text(
			ui.Int(s.Valid) + " valid · " + ui.Int(s.InvalidOutputs) + " invalid output · " + ui.Int(s.ExecutionErrors) + " execution error")
	}
	total := ui.NoValue
	if r.Total > 0 || l.loaded && !api.Active(r.Status) {
		total = ui.Int(r.Total)
	}
	return app.Section().ID("live").Class("panel").DataSet("id", l.id).DataSet("status", r.Status).Style("margin-bottom", "12px").Body(
		head,
		app.Div().ID("run-progress").Class("progress").Aria("valuenow", strconv.Itoa(int(donePct(r.Done, r.Total)))).
			Title(ui.Pct(donePct(r.Done, r.Total)/100)).Body(
			app.Div().Style("width", strconv.FormatFloat(donePct(r.Done, r.Total), 'f', 2, 64)+"%"),
		),
		app.P().Class("row").Body(
			app.Span().Body(app.Span().ID("run-done").DataSet("value", r.Done).Text(ui.Int(r.Done)), app.Text(" / "),
				app.Span().ID("run-total").DataSet("value", r.Total).Text(total), app.Text(" examples")),
			app.Span().Body(app.Span().ID("run-rate").DataSet("value", strconv.FormatFloat(rate, 'f', -1, 64)).Text(fmtRate(rate)),
				app.Text(" examples/s")),
			app.If(api.Active(r.Status) && etaText(r.Done, r.Total, rate) != "", func() app.UI {
				return app.Span().ID("run-eta").Class("muted").Text(etaText(r.Done, r.Total, rate))
			}),
			counts,
		),
		app.If(r.Status == api.Queued, func() app.UI {
			return app.P().ID("run-queued").Class("muted").Text("Waiting for a free slot: the server runs a few runs at once and queues the rest.")
		}),
		app.If(l.polling && api.Active(r.Status), func() app.UI {
			return app.P().Class("muted").Text("Live updates are unavailable; checking the run every second.")
		}),
		app.If(l.err != nil, func() app.UI { return app.P().Class("error").Text(ui.ErrText(l.err)) }),
		p.renderOutcome(),
	)
}

// rateOf is a run's rate in examples per second: the live one while it runs, else its
// average from start to finish (0 when unknown).
func rateOf(r api.Run) float64 {
	switch {
	case r.Rate != nil && *r.Rate > 0:
		return *r.Rate
	case r.StartedAt == nil || r.FinishedAt == nil:
		return 0
	}
	if d := r.FinishedAt.Sub(*r.StartedAt).Seconds(); d > 0 {
		return float64(r.Done) / d
	}
	return 0
}

// renderOutcome shows how the followed run ended: its score, or why it stopped.
func (p *Page) renderOutcome() app.UI {
	l := &p.live
	switch l.run.Status {
	case api.Completed:
		score := app.Div().ID("run-score").DataSet("value", ui.RawScore(l.score)).Body(app.Span().Class("score").Text(ui.ScorePtr(l.score)))
		if l.ci != nil {
			score = app.Div().ID("run-score").DataSet("value", ui.RawScore(l.score)).Body(
				app.Span().Class("score").Text(ui.ScorePtr(l.score)), app.Text(" "),
				app.Span().ID("run-ci").Class("muted").Title(l.ci.Method).
					Text(ui.Level(*l.ci)+" "+ui.Interval(*l.ci)),
			)
		}
		return app.Div().Body(score, app.P().Body(
			app.A().ID("run-results-link").Href(ui.ResultsURL(l.id, "")).Text("See every example's result →")))
	case api.Aborted:
		return app.Div().ID("run-failure").Class("notice error").Text(ui.RunError(l.run.Error))
	case api.Cancelled, api.Interrupted:
		return app.P().ID("run-stopped").Class("muted").Text("This run was " + l.run.Status +
			" with " + ui.Plural(l.run.Done, "stored result") + ". Resume evaluates only the missing examples.")
	}
	return app.Div()
}
