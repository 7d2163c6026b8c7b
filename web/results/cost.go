package results

import (
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// costCards are the cards of what a model run cost (its priced examples at the runtime
// file's prices, and how much of that was replayed from the response cache, not paid
// again) and of its cache's hits and misses, each only when the report has it.
func costCards(rep *api.Report) []app.UI {
	var cards []app.UI
	if u := rep.Usage; u != nil && u.CostUSD != nil {
		note := ui.Plural(u.PricedExamples, "example") + " priced"
		if u.CachedCostUSD != nil {
			note = ui.USD(*u.CachedCostUSD) + " of it from the cache, not paid again"
		}
		cards = append(cards, app.Div().ID("cost").Class("card").Title("at the model's prices in the runtime file").Body(
			app.Div().Class("muted").Text("cost"),
			app.Div().Class("big").Text(ui.USD(*u.CostUSD)),
			app.Div().ID("cost-cached").Class("muted").Text(note),
		))
	}
	if c := rep.Cache; c != nil {
		cards = append(cards, app.Div().ID("cache").Class("card").Title("examples answered from the response cache / sent to the provider").Body(
			app.Div().Class("muted").Text("cache hits / misses"),
			app.Div().Class("big").Text(ui.Int(c.Hits)+" / "+ui.Int(c.Misses)),
		))
	}
	return cards
}
