package web

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// renderLive shows the followed run: status, progress, rate, and how it ended.
func (p *RunsPage) renderLive() app.UI {
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
		app.A().ID("run-results").Class("button").Href(resultsURL(l.id, "")).Text("Results"),
	)
	rate := rateOf(r)
	counts := app.Span().Class("muted").Text("")
	if s := r.Summary; s != nil {
		counts = app.Span().ID("run-counts").Class("muted").Text(
			fmtInt(s.Valid) + " valid · " + fmtInt(s.InvalidOutputs) + " invalid output · " + fmtInt(s.ExecutionErrors) + " execution error")
	}
	total := noValue
	if r.Total > 0 || l.loaded && !api.Active(r.Status) {
		total = fmtInt(r.Total)
	}
	return app.Section().ID("live").Class("panel").DataSet("id", l.id).DataSet("status", r.Status).Style("margin-bottom", "12px").Body(
		head,
		app.Div().ID("run-progress").Class("progress").Aria("valuenow", strconv.Itoa(int(donePct(r.Done, r.Total)))).
			Title(fmtPct(donePct(r.Done, r.Total)/100)).Body(
			app.Div().Style("width", strconv.FormatFloat(donePct(r.Done, r.Total), 'f', 2, 64)+"%"),
		),
		app.P().Class("row").Body(
			app.Span().Body(app.Span().ID("run-done").DataSet("value", r.Done).Text(fmtInt(r.Done)), app.Text(" / "),
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
		app.If(l.err != nil, func() app.UI { return app.P().Class("error").Text(apiErrText(l.err)) }),
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
func (p *RunsPage) renderOutcome() app.UI {
	l := &p.live
	switch l.run.Status {
	case api.Completed:
		score := app.Div().ID("run-score").DataSet("value", rawScore(l.score)).Body(app.Span().Class("score").Text(fmtScorePtr(l.score)))
		if l.ci != nil {
			score = app.Div().ID("run-score").DataSet("value", rawScore(l.score)).Body(
				app.Span().Class("score").Text(fmtScorePtr(l.score)), app.Text(" "),
				app.Span().ID("run-ci").Class("muted").Title(l.ci.Method).
					Text(fmtLevel(*l.ci)+" "+fmtInterval(*l.ci)),
			)
		}
		return app.Div().Body(score, app.P().Body(
			app.A().ID("run-results-link").Href(resultsURL(l.id, "")).Text("See every example's result →")))
	case api.Aborted:
		msg := "The run was aborted."
		if e := l.run.Error; e != nil {
			msg = e.Code + ": " + e.Message
			if e.File != "" {
				msg += " (" + e.File
				if e.Line > 0 {
					msg += ":" + strconv.Itoa(e.Line)
				}
				msg += ")"
			}
		}
		return app.Div().ID("run-failure").Class("notice error").Text(msg)
	case api.Cancelled, api.Interrupted:
		return app.P().ID("run-stopped").Class("muted").Text("This run was " + l.run.Status +
			" with " + pluralize(l.run.Done, "stored result") + ". Resume evaluates only the missing examples.")
	}
	return app.Div()
}

// renderList is the table of the benchmark's runs, newest first.
func (p *RunsPage) renderList() app.UI {
	bar := app.Div().Class("toolbar").Body(
		app.H2().Style("margin", "0").Text("Runs of this benchmark"),
		app.Span().Class("sep"),
		app.Span().Class("muted").Text("pick two completed runs to compare"),
		app.Button().ID("compare").Disabled(len(p.picks) != 2).
			Text("Compare ("+strconv.Itoa(len(p.picks))+"/2)").OnClick(p.onCompare),
		app.Button().ID("refresh-runs").Text("Refresh").OnClick(func(ctx app.Context, e app.Event) { p.loadRuns(ctx) }),
	)
	var body app.UI
	switch {
	case p.runsErr != nil:
		body = app.P().ID("runs-error").Class("error").Text(apiErrText(p.runsErr))
	case !p.runsOK:
		body = app.P().Class("muted").Text("Loading runs…")
	case len(p.runs) == 0:
		body = app.P().ID("no-runs").Class("muted").Text("No runs yet. Start one above: its progress shows here live.")
	default:
		rows := make([]app.UI, 0, len(p.runs))
		for _, r := range p.runs {
			rows = append(rows, p.renderRow(r))
		}
		body = app.Table().ID("runs").Class("data").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text(""), app.Th().Text("Run"), app.Th().Text("Status"), app.Th().Text("Score"),
				app.Th().Text("Examples"), app.Th().Text("Valid · invalid · errors"), app.Th().Text("Binding"),
				app.Th().Text("Created"), app.Th().Text(""),
			)),
			app.TBody().Body(rows...),
		)
	}
	return app.Section().ID("runs-list").Class("panel").Body(bar, body)
}

// renderRow is one run of the list; the followed run shows its live figures.
func (p *RunsPage) renderRow(r api.Run) app.UI {
	score := noValue
	if rep := r.DecodeReport(); rep != nil {
		score = fmtScorePtr(rep.BenchmarkScore)
	}
	if r.ID == p.live.id && p.live.loaded {
		r = p.live.run
		if p.live.score != nil {
			score = fmtScore(*p.live.score)
		}
	}
	counts := noValue
	if s := r.Summary; s != nil {
		counts = fmtInt(s.Valid) + " · " + fmtInt(s.InvalidOutputs) + " · " + fmtInt(s.ExecutionErrors)
	}
	examples := fmtInt(r.Done) + " / " + fmtInt(r.Total)
	if r.Total == 0 && api.Active(r.Status) {
		examples = fmtInt(r.Done) + " / " + noValue
	}
	class := "run"
	if r.ID == p.live.id {
		class += " live"
	}
	completed := r.Status == api.Completed
	check := app.Input().Type("checkbox").Class("pick").DataSet("id", r.ID).
		Checked(slices.Contains(p.picks, r.ID)).Disabled(!completed).
		Title(map[bool]string{true: "compare this run", false: "only completed runs can be compared"}[completed]).
		OnChange(p.onPick, app.EventScope(r.ID))
	return app.Tr().Class(class).DataSet("id", r.ID).DataSet("status", r.Status).
		Title("Click to follow this run").OnClick(p.onRow, app.EventScope(r.ID)).Body(
		app.Td().Body(check),
		app.Td().Class("mono").Title(r.ID).Text(shortID(r.ID)),
		app.Td().Body(app.Span().Class("badge "+r.Status).Text(r.Status)),
		app.Td().Class("run-score").Text(score),
		app.Td().Class("run-examples").Text(examples),
		app.Td().Text(counts),
		app.Td().Class("mono").Text(r.Binding),
		app.Td().Text(fmtTime(r.CreatedAt)),
		app.Td().Body(app.A().Href(resultsURL(r.ID, "")).Text("results")),
	)
}
