package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ComparePage is a page of the app (to be written).
type ComparePage struct{ app.Compo }

func (p *ComparePage) Render() app.UI { return shell("/compare", app.H1().Text("ComparePage")) }
