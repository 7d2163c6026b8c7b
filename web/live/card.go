package live

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// Cards shows runs side by side, one Card each, in the order given.
func Cards(id string, runs []*Run, onCancel func(id string) app.EventHandler) app.UI {
	cards := make([]app.UI, 0, len(runs)+1)
	cards = append(cards, app.Style().Text(cardCSS))
	for _, r := range runs {
		var cancel app.EventHandler
		if onCancel != nil {
			cancel = onCancel(r.ID)
		}
		cards = append(cards, Card(r, cancel))
	}
	return app.Div().ID(id).Class("live-cards").Body(cards...)
}

// Card is one followed run among several: its AI-system, status and progress, then how
// it ended. onCancel, when set, is its Cancel button's handler while it runs.
func Card(r *Run, onCancel app.EventHandler) app.UI {
	rec := r.Record
	status, _ := r.Phase()
	class, status := ui.RunStatus(&rec, status)
	label := r.Label()
	if label == "" {
		label = ui.ShortID(r.ID)
	}
	pct := DonePct(rec.Done, rec.Total)
	total := ui.NoValue
	if rec.Total > 0 || r.Loaded && !api.Active(rec.Status) {
		total = ui.Int(rec.Total)
	}
	rate := RateOf(rec)
	pace := ui.Int(rec.Done) + " / " + total + " examples"
	if rate > 0 {
		pace += " · " + Rate(rate) + "/s"
	}
	if eta := ETA(rec.Done, rec.Total, rate); eta != "" && api.Active(rec.Status) {
		pace += " · " + eta
	}
	health := ""
	if ui.Failed(&rec) {
		health = "failed"
	}
	return app.Div().Class("card live-card").DataSet("id", r.ID).DataSet("status", rec.Status).DataSet("health", health).DataSet("system", label).Body(
		app.Div().Class("live-head").Body(
			app.Strong().Class("live-system mono").Title(label).Text(label),
			app.Span().Class("badge live-status "+class).Text(status),
		),
		app.Div().Class("progress").Aria("valuenow", strconv.Itoa(int(pct))).Title(ui.Pct(pct/100)).Body(
			app.Div().Style("width", strconv.FormatFloat(pct, 'f', 2, 64)+"%"),
		),
		app.Div().Class("live-pace small").DataSet("done", rec.Done).DataSet("total", rec.Total).Text(pace),
		app.If(rec.Summary != nil, func() app.UI { return app.Div().Class("live-counts small muted").Text(Counts(rec.Summary)) }),
		outcome(r),
		app.If(r.Err != nil, func() app.UI { return app.Div().Class("error small").Text(ui.ErrText(r.Err)) }),
		app.Div().Class("live-links row small").Body(
			app.A().Class("mono").Href(ui.ResultsURL(r.ID, "")).Title(r.ID).Text("results "+ui.ShortID(r.ID)),
			app.If(onCancel != nil && api.Active(rec.Status), func() app.UI {
				return app.Button().Class("small danger live-cancel").Text("Cancel").OnClick(onCancel, app.EventScope(r.ID))
			}),
		),
	)
}

// outcome is how a card's run ended: its score with the interval, or why it stopped.
func outcome(r *Run) app.UI {
	switch r.Record.Status {
	case api.Completed:
		if ui.Failed(&r.Record) {
			return app.Div().Class("live-score").DataSet("meaningful", "no").Body(
				app.Span().Class("big struck").Text(ui.ScorePtr(r.Score)), app.Text(" "),
				app.Span().Class("muted small").Text(ui.NotMeaningful),
				app.Div().Class("live-health error small").Text(r.Record.Health.Sentence()),
			)
		}
		ci := ""
		if r.CI != nil {
			ci = ui.Level(*r.CI) + " " + ui.Interval(*r.CI)
		}
		partial := Partial(r.Record, 0)
		return app.Div().Class("live-score").DataSet("value", ui.RawScore(r.Score)).Body(
			app.Span().Class("big").Text(ui.ScorePtr(r.Score)), app.Text(" "),
			app.Span().Class("muted small").Text(ci),
			app.If(partial != "", func() app.UI {
				return app.Span().Class("badge partial").Title("A partial run: only the " + partial + " examples were evaluated").Text(partial)
			}),
		)
	case api.Aborted:
		return app.Div().Class("live-failure error small").Text(ui.RunError(r.Record.Error))
	case api.Cancelled, api.Interrupted:
		return app.Div().Class("muted small").Text("This run was " + r.Record.Status + " with " + ui.Plural(r.Record.Done, "stored result") + ".")
	}
	if _, note := r.Phase(); note != "" {
		return app.Div().Class("live-phase muted small").Text(note + ".")
	}
	return app.Div()
}

// cardCSS lays the cards out; the kit's .card, .progress and .badge do the rest.
const cardCSS = `
.live-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 10px; margin: 8px 0 12px; }
.live-card { display: flex; flex-direction: column; gap: 6px; }
.live-card .live-head { display: flex; gap: 8px; align-items: center; justify-content: space-between; }
.live-card .live-system { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 13px; }
.live-card .live-score .big { font-size: 22px; font-weight: 700; }
.live-card[data-status="completed"] { border-color: #b9dcc6; }
.live-card[data-status="aborted"], .live-card[data-health="failed"] { border-color: #e4b6b2; }
.live-card[data-health="failed"] .progress > div { background: var(--bad); }
`
