package runs

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// renderLive shows the followed run: status, progress, rate, and how it ended; or the
// runs of one launch side by side.
func (p *Page) renderLive() app.UI {
	switch len(p.followed) {
	case 0:
		return app.Div().ID("live").Hidden(true)
	case 1:
	default:
		return p.renderBatch()
	}
	l := p.followed[0]
	r := l.Record
	status, note := l.Phase()
	class, status := ui.RunStatus(&r, status)
	head := app.Div().Class("toolbar").Body(
		app.H2().Style("margin", "0").Body(app.Text("Run "), app.Span().Class("mono").Title(l.ID).Text(l.ID)),
		app.If(l.Label() != "", func() app.UI {
			return app.Span().ID("run-system").Class("badge").Title("the AI-system").Text(l.Label())
		}),
		app.Span().ID("run-status").Class("badge "+class).Text(status),
		app.Span().Class("sep"),
		app.If(api.Active(r.Status), func() app.UI {
			return app.Button().ID("cancel").Class("danger").Text("Cancel").OnClick(p.onAction("cancel"))
		}),
		app.If(api.Resumable(r.Status), func() app.UI {
			return app.Button().ID("resume").Class("primary").Text("Resume").
				Title("Evaluate only the examples this run has no result for").OnClick(p.onAction("resume"))
		}),
		app.A().ID("run-results").Class("button").Href(ui.ResultsURL(l.ID, "")).Text("Results"),
	)
	rate := live.RateOf(r)
	counts := app.Span().Class("muted").Text("")
	if s := r.Summary; s != nil {
		counts = app.Span().ID("run-counts").Class("muted").Text(live.Counts(s))
	}
	total := ui.NoValue
	if r.Total > 0 || l.Loaded && !api.Active(r.Status) {
		total = ui.Int(r.Total)
	}
	return app.Section().ID("live").Class("panel").DataSet("id", l.ID).DataSet("status", r.Status).Style("margin-bottom", "12px").Body(
		head,
		app.Div().ID("run-progress").Class("progress").Aria("valuenow", strconv.Itoa(int(live.DonePct(r.Done, r.Total)))).
			Title(ui.Pct(live.DonePct(r.Done, r.Total)/100)).Body(
			app.Div().Style("width", strconv.FormatFloat(live.DonePct(r.Done, r.Total), 'f', 2, 64)+"%"),
		),
		app.P().Class("row").Body(
			app.Span().Body(app.Span().ID("run-done").DataSet("value", r.Done).Text(ui.Int(r.Done)), app.Text(" / "),
				app.Span().ID("run-total").DataSet("value", r.Total).Text(total), app.Text(" examples")),
			app.Span().Body(app.Span().ID("run-rate").DataSet("value", strconv.FormatFloat(rate, 'f', -1, 64)).Text(live.Rate(rate)),
				app.Text(" examples/s")),
			app.If(api.Active(r.Status) && live.ETA(r.Done, r.Total, rate) != "", func() app.UI {
				return app.Span().ID("run-eta").Class("muted").Text(live.ETA(r.Done, r.Total, rate))
			}),
			counts,
		),
		renderWaiting(r),
		renderCluster(r),
		app.If(r.Status == api.Queued, func() app.UI {
			return app.P().ID("run-queued").Class("muted").Text("Waiting for a free slot: the server runs a few runs at once and queues the rest.")
		}).ElseIf(note != "", func() app.UI {
			return app.P().ID("run-phase").Class("muted").Text(note + ".")
		}),
		app.If(l.Polling && api.Active(r.Status), func() app.UI {
			return app.P().Class("muted").Text("Live updates are unavailable; checking the run every second.")
		}),
		app.If(l.Err != nil, func() app.UI { return app.P().Class("error").Text(ui.ErrText(l.Err)) }),
		renderOutcome(l, live.Partial(r, datasetSizes(p.runs.Value)[r.DatasetDigest])),
		p.renderBudget(l),
	)
}

// renderOutcome shows how the followed run ended: its score, or why it stopped; partial
// labels the score of a run of the first N examples (live.Partial).
func renderOutcome(l *live.Run, partial string) app.UI {
	switch l.Record.Status {
	case api.Completed:
		if ui.Failed(&l.Record) {
			return app.Div().Body(app.Div().ID("run-score").DataSet("meaningful", "no").Body(
				app.Span().Class("score struck").Text(ui.ScorePtr(l.Score)), app.Text(" "),
				app.Span().ID("run-ci").Class("muted").Text(ui.NotMeaningful),
			), app.P().Body(
				app.A().ID("run-results-link").Href(ui.ResultsURL(l.ID, "")).Text("See why each example failed →")))
		}
		score := app.Div().ID("run-score").DataSet("value", ui.RawScore(l.Score)).Body(
			app.Span().Class("score").Text(ui.ScorePtr(l.Score)), app.Text(" "),
			app.If(l.CI != nil, func() app.UI {
				return app.Span().ID("run-ci").Class("muted").Title(l.CI.Method).Text(ui.Level(*l.CI) + " " + ui.Interval(*l.CI))
			}),
			app.If(partial != "", func() app.UI { return app.Span().Text(" ") }),
			app.If(partial != "", func() app.UI { return partialBadge(partial) }),
		)
		return app.Div().Body(score, app.P().Body(
			app.A().ID("run-results-link").Href(ui.ResultsURL(l.ID, "")).Text("See every example's result →")))
	case api.Aborted:
		return app.Div().ID("run-failure").Class("notice error").Text(ui.RunError(l.Record.Error))
	case api.Cancelled, api.Interrupted:
		if l.Record.Reason == api.ReasonBudget {
			return app.P().ID("run-stopped").Class("muted").Text("Cancelled: budget reached with " +
				ui.Plural(l.Record.Done, "stored result") + ". " + ui.BudgetHint)
		}
		return app.P().ID("run-stopped").Class("muted").Text("This run was " + l.Record.Status +
			" with " + ui.Plural(l.Record.Done, "stored result") + ". Resume evaluates only the missing examples.")
	}
	return app.Div()
}
