package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// OntologyPage is a page of the app (to be written).
type OntologyPage struct{ app.Compo }

func (p *OntologyPage) Render() app.UI { return shell("/ontology", app.H1().Text("OntologyPage")) }
