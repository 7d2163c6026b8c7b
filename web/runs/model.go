package runs

import (
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// The start form's model options: the response cache's mode and a budget, what benchy run's
// --cache, --max-cost and --max-tokens are, for runs of a model behind one of the runtime
// file's providers. They are shown only when it defines a provider.

// cacheChoices are the cache select's options: the runtime file's own mode first.
var cacheChoices = []struct{ value, text string }{
	{"", "as the runtime file says"},
	{"off", "off"},
	{"use", "use (replay what it holds)"},
	{"refresh", "refresh (ask again, keep)"},
	{"only", "only (no network)"},
}

// renderModelOptions is the cache select and the budget inputs; nothing without providers.
func (p *Page) renderModelOptions() app.UI {
	if len(p.providers()) == 0 {
		return app.Span().ID("model-options").Hidden(true)
	}
	options := make([]app.UI, 0, len(cacheChoices))
	for _, c := range cacheChoices {
		options = append(options, app.Option().Value(c.value).Selected(p.cache == c.value).Text(c.text))
	}
	return app.Span().ID("model-options").Class("row").Body(
		app.Label().For("cache").Text("Cache"),
		app.Select().ID("cache").Title("A model's response cache, kept in the workspace's store: replay the replies it holds (use), ask every request again and keep the replies (refresh), or replay without the network (only)").
			OnChange(p.ValueTo(&p.cache)).Body(options...),
		app.Label().For("start-max-cost").Text("Max cost $"),
		app.Input().ID("start-max-cost").Type("number").Min(0).Step(0.01).Placeholder("no limit").Value(p.startCost).
			Title("Stop starting requests before the run's cost at the runtime file's prices could pass this many US dollars (the replies need max_tokens)").
			OnInput(p.ValueTo(&p.startCost)),
		app.Label().For("start-max-tokens").Text("Max tokens"),
		app.Input().ID("start-max-tokens").Type("number").Min(1).Placeholder("no limit").Value(p.startTokens).
			Title("Stop starting requests before the run's input and output tokens could pass this many").
			OnInput(p.ValueTo(&p.startTokens)),
	)
}

// modelOptions sets req's cache mode and budget from the form: an error the page shows
// for a value that is not one.
func (p *Page) modelOptions(req *api.StartRun) error {
	if len(p.providers()) == 0 {
		return nil
	}
	req.Cache = p.cache
	if s := strings.TrimSpace(p.startCost); s != "" {
		c, err := strconv.ParseFloat(s, 64)
		if err != nil || c <= 0 || math.IsInf(c, 0) || math.IsNaN(c) {
			return &client.Error{Code: "bad_input", Message: "the max cost must be an amount of US dollars above 0 (or empty)"}
		}
		req.MaxCost = c
	}
	n, err := positive(p.startTokens, "the max tokens")
	if err != nil {
		return err
	}
	req.MaxTokens = n
	return nil
}
