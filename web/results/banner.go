package results

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderBanner says, at the top of the page, that a run failed as infrastructure (most of
// its examples execution errors) rather than scored: the most frequent error in full, so
// the score below is not read as the system's quality.
func (p *Page) renderBanner() app.UI {
	if !p.run.OK || p.run.Value.Health == nil || !p.run.Value.Health.Failed {
		return app.Div().ID("health-banner").Hidden(true)
	}
	h := p.run.Value.Health
	return app.Div().ID("health-banner").Class("health-banner").Body(
		app.Strong().Text("This run failed: its score is not meaningful. "),
		app.Span().ID("health-sentence").Text(h.Sentence()),
	)
}
