package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ResultsPage is a page of the app (to be written).
type ResultsPage struct{ app.Compo }

func (p *ResultsPage) Render() app.UI { return shell("/results", app.H1().Text("ResultsPage")) }
