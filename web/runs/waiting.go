package runs

import (
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// renderWaiting says what the followed run waits for while it runs (its provider's rate
// limit, its provider batches), with each batch waited for; nothing when it waits for
// nothing.
func renderWaiting(r api.Run) app.UI {
	w := r.Waiting
	if w == nil || !api.Active(r.Status) {
		return app.Div().ID("run-waiting").Hidden(true)
	}
	text := live.Waiting(w, time.Now())
	body := []app.UI{app.Span().ID("run-waiting-text").Text(strings.ToUpper(text[:1]) + text[1:] + ".")}
	if w.For == api.WaitBatch && len(w.Batches) > 0 {
		items := make([]app.UI, 0, len(w.Batches))
		for _, b := range w.Batches {
			items = append(items, app.Li().Class("run-batch").DataSet("id", b.ID).Body(
				app.Span().Class("mono").Text(b.ID),
				app.Text(" · "+b.Provider+" · "+b.State+" · "+ui.Int(b.Done)+" of "+ui.Int(b.Requests)+" done"),
			))
		}
		body = append(body, app.Ul().ID("run-batches").Class("muted small").Body(items...))
	}
	return app.Div().ID("run-waiting").Class("notice").Role("status").DataSet("for", w.For).Title(w.Detail).Body(body...)
}

// waitingTag is a run's short note in the runs table while it waits.
func waitingTag(r api.Run) app.UI {
	if r.Waiting == nil || !api.Active(r.Status) {
		return nil
	}
	what := "rate limit"
	if r.Waiting.For == api.WaitBatch {
		what = "batches"
	}
	return app.Div().Class("run-waiting muted small").Title(live.Waiting(r.Waiting, time.Now())).Text("waiting: " + what)
}
