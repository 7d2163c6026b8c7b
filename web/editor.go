package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Editor is the main page.
type Editor struct{ app.Compo }

func (p *Editor) Render() app.UI { return shell("/", app.H1().Text("Editor")) }
