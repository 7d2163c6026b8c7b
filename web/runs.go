package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// RunsPage is a page of the app (to be written).
type RunsPage struct{ app.Compo }

func (p *RunsPage) Render() app.UI { return shell("/runs", app.H1().Text("RunsPage")) }
