package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/compare"
	"github.com/benchy-eval/benchy/web/editor"
	"github.com/benchy-eval/benchy/web/grid"
	"github.com/benchy-eval/benchy/web/leaderboard"
	"github.com/benchy-eval/benchy/web/ontology"
	"github.com/benchy-eval/benchy/web/results"
	"github.com/benchy-eval/benchy/web/runs"
)

// Pages of the app: each a route. Pages other than the editor are listed so that the
// service worker caches them for offline use.
var Pages = []string{"/", "/runs", "/results", "/compare", "/leaderboard", "/leaderboard/examples", "/ontology"}

// Routes registers every page. Both the browser and the server must call it.
func Routes() {
	app.Route("/", func() app.Composer { return &editor.Page{} })
	app.Route("/runs", func() app.Composer { return &runs.Page{} })
	app.Route("/results", func() app.Composer { return &results.Page{} })
	app.Route("/compare", func() app.Composer { return &compare.Page{} })
	app.Route("/leaderboard", func() app.Composer { return &leaderboard.Page{} })
	app.Route("/leaderboard/examples", func() app.Composer { return &grid.Page{} })
	app.Route("/ontology", func() app.Composer { return &ontology.Page{} })
}
