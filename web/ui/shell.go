package ui

import (
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

// Status shows whether the server is reachable; without it the editor still works.
type Status struct {
	app.Compo
	online    bool
	known     bool
	needToken bool // the server asks for a token this tab does not have
}

func (s *Status) OnMount(ctx app.Context) {
	s.online = app.Window().Get("navigator").Get("onLine").Bool()
	s.known = true
	online := app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { s.online = true })
		return nil
	})
	offline := app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { s.online = false })
		return nil
	})
	app.Window().Call("addEventListener", "online", online)
	app.Window().Call("addEventListener", "offline", offline)
	ctx.Async(func() {
		err := client.Default.Ping(ctx)
		ctx.Dispatch(func(ctx app.Context) {
			s.online = !client.Offline(err)
			s.needToken = client.StatusIs(err, 401)
		})
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
		return app.Span().Class("status").Text("")
	case s.online:
		return app.Span().ID("server-status").Class("status").Text("server connected")
	}
	return app.Span().ID("server-status").Class("status offline").Text("offline: editing and IR preview still work")
}
