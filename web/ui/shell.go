package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/client"
)

// Shell is the frame of every page: the top bar with the app's sections, then the page.
func Shell(active string, body ...app.UI) app.UI {
	link := func(href, label string) app.UI {
		a := app.A().Href(href).Text(label)
		if href == active {
			a = a.Class("active")
		}
		return a
	}
	return app.Div().ID("benchy").Body(
		app.Style().Text(kitCSS),
		app.Header().Class("top").Body(
			app.A().Class("brand").Href("/").Body(app.Img().Src("/web/icon.svg").Alt(""), app.Text("Benchy")),
			app.Nav().Body(
				link("/", "Editor"),
				link("/runs", "Runs"),
				link("/leaderboard", "Leaderboards"),
				link("/ontology", "Ontology"),
			),
			&Status{},
		),
		app.Main().Body(body...),
	)
}

// Status shows whether the server answered the last request: every request of the typed
// client reports its outcome (client.Watch), and while the page is visible a light probe
// runs every probeEvery, so the indicator is at most a few seconds stale. Without the server
// the editor still works.
type Status struct {
	app.Compo
	online    bool
	known     bool
	needToken bool // the server asks for a token this tab does not have
	stop      func()
}

// probeEvery is how often a visible page asks whether the server is there.
const probeEvery = 3 * time.Second

func (s *Status) OnMount(ctx app.Context) {
	s.stop = client.Watch(func(reached bool) {
		ctx.Dispatch(func(ctx app.Context) { s.online, s.known = reached, true })
	})
	s.probe(ctx)
	ctx.Async(func() {
		tick := time.NewTicker(probeEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if app.Window().Get("document").Get("visibilityState").String() == "visible" {
					s.probe(ctx)
				}
			}
		}
	})
}

func (s *Status) OnDismount() {
	if s.stop != nil {
		s.stop()
	}
}

// probe pings the server; the answer reaches the indicator through client.Watch, and a 401
// asks for the token.
func (s *Status) probe(ctx app.Context) {
	ctx.Async(func() {
		err := client.Default.Ping(ctx)
		ctx.Dispatch(func(ctx app.Context) { s.needToken = client.StatusIs(err, 401) })
	})
}

func (s *Status) Render() app.UI {
	switch {
	case s.needToken:
		return app.Form().ID("token-form").Class("status row").
			OnSubmit(func(ctx app.Context, ev app.Event) {
				ev.PreventDefault()
				client.SetToken(app.Window().GetElementByID("token").Get("value").String())
				ctx.Reload()
			}).
			Body(
				app.Label().For("token").Text("this server needs its token:"),
				app.Input().ID("token").Type("password").Attr("autocomplete", "off"),
				app.Button().Type("submit").Text("Use"),
			)
	case !s.known:
		return app.Span().ID("server-status").Class("status").Text("")
	case s.online:
		return app.Span().ID("server-status").Class("status").Text("server connected")
	}
	return app.Span().ID("server-status").Class("status offline").Text("server unreachable: editing and IR preview still work")
}
