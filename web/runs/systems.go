package runs

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// systemPicks are the AI-systems the next start runs the shown benchmark against: its
// own (checked unless unchecked), bindings of its runtime file, and models of its
// providers. One start runs each as a run of its own (POST /api/runs with systems).
type systemPicks struct {
	notOwn   bool            // the benchmark's own AI-system is unchecked
	external map[string]bool // bindings checked, by name
	models   []modelPick     // providers with a model name to type
}

// modelPick is a model of a runtime provider, the benchy run --model PROVIDER/MODEL.
type modelPick struct{ provider, model string }

// choices are the picked systems as the server takes them, in the order the page lists
// them: the own system, the bindings (as the runtime file names them), the models with a
// name typed. bindings are the names offered, own's binding left out.
func (s systemPicks) choices(bindings []string) []api.SystemChoice {
	var out []api.SystemChoice
	if !s.notOwn {
		out = append(out, api.SystemChoice{Own: true})
	}
	for _, name := range bindings {
		if s.external[name] {
			out = append(out, api.SystemChoice{System: name})
		}
	}
	for _, m := range s.models {
		if name := strings.TrimSpace(m.model); m.provider != "" && name != "" {
			out = append(out, api.SystemChoice{Model: m.provider + "/" + name})
		}
	}
	return out
}

// onlyOwn reports whether choices are the benchmark's own system alone: a start then asks
// for no systems, as before there were any to choose.
func onlyOwn(choices []api.SystemChoice) bool {
	return len(choices) == 1 && choices[0].Own
}

// startLabel is the start button's text for choices.
func startLabel(choices []api.SystemChoice, starting bool) string {
	switch {
	case starting:
		return "Starting…"
	case len(choices) == 0 || onlyOwn(choices):
		return "Start run"
	case len(choices) == 1:
		return "Run 1 system"
	}
	return "Run " + strconv.Itoa(len(choices)) + " systems"
}

// otherBindings are the runtime file's bindings the page offers besides the benchmark's
// own: its own binding is the own system, not a second run of it.
func (p *Page) otherBindings() []string {
	if !p.bindings.Has(p.path) {
		return nil
	}
	own := ""
	if sys := p.file.Value.AISystem(); p.file.OK && sys != nil && sys.Type != "model" {
		own = sys.ID
	}
	var out []string
	for _, b := range p.bindings.Value.Bindings {
		if b != own {
			out = append(out, b)
		}
	}
	return out
}

// providers are the runtime file's providers, for a model to be typed.
func (p *Page) providers() []string {
	if !p.bindings.Has(p.path) {
		return nil
	}
	return p.bindings.Value.Providers
}

// picked are the systems the start button runs.
func (p *Page) picked() []api.SystemChoice { return p.systems.choices(p.otherBindings()) }

// ownLabel names the benchmark's own AI-system as runs record it: its id, or provider/model.
func (p *Page) ownLabel() string {
	if sys := p.file.Value.AISystem(); p.file.OK && sys != nil {
		return ui.SystemLabel(sys)
	}
	return "its own AI-system"
}

// choiceLabels name choices as the runs will record them, for the notes of a start.
func (p *Page) choiceLabels(choices []api.SystemChoice) []string {
	out := make([]string, len(choices))
	for i, c := range choices {
		switch {
		case c.Own:
			out[i] = p.ownLabel()
		case c.Model != "":
			out[i] = c.Model
		default:
			out[i] = c.System
		}
	}
	return out
}

// notRun are the systems a start left out, the server having refused them, and the runs
// it started: the notes show while those runs are followed (or when none started).
type notRun struct {
	systems []live.NotRun
	ids     []string
}

// renderNotRun says which picked systems did not run, and why.
func (p *Page) renderNotRun() app.UI {
	n := p.notRun
	if len(n.systems) == 0 || len(n.ids) > 0 && !slices.Equal(n.ids, p.followedIDs()) {
		return app.Div().ID("not-run").Hidden(true)
	}
	lines := make([]app.UI, 0, len(n.systems))
	for _, s := range n.systems {
		lines = append(lines, app.Div().Class("not-run").DataSet("system", s.System).Text(s.Text()))
	}
	return app.Div().ID("not-run").Class("notice").Role("status").Body(lines...)
}

// renderSystems lists the AI-systems the benchmark can run against, to check.
func (p *Page) renderSystems() app.UI {
	ownLabel := p.ownLabel()
	items := []app.UI{
		app.Label().Class("system-choice").Body(
			app.Input().Type("checkbox").ID("system-own").Checked(!p.systems.notOwn).OnChange(p.onOwn),
			app.Span().Class("mono").Text(ownLabel),
			app.Span().Class("muted").Text(" the benchmark's own, as the file defines it"),
		),
	}
	for _, name := range p.otherBindings() {
		items = append(items, app.Label().Class("system-choice").Body(
			app.Input().Type("checkbox").Class("system-binding").DataSet("name", name).
				Checked(p.systems.external[name]).OnChange(p.onBinding, app.EventScope(name)),
			app.Span().Class("mono").Text(name),
			app.Span().Class("muted").Text(" external, bound in "+p.runtimeFile()),
		))
	}
	for i, m := range p.systems.models {
		opts := make([]app.UI, 0, len(p.providers()))
		for _, prov := range p.providers() {
			opts = append(opts, app.Option().Value(prov).Text(prov).Selected(prov == m.provider))
		}
		items = append(items, app.Div().Class("system-choice model-row row").DataSet("row", i).Body(
			app.Span().Class("muted").Text("model of provider"),
			app.Select().Class("model-provider").Body(opts...).OnChange(p.onModelProvider(i), app.EventScope(strconv.Itoa(i))),
			app.Input().Type("text").Class("model-name").Placeholder("model name, e.g. llama3.2").Value(m.model).
				OnInput(p.onModelName(i), app.EventScope(strconv.Itoa(i))),
			app.Button().Type("button").Class("small").Title("Remove this model").Text("✕").
				OnClick(p.onRemoveModel(i), app.EventScope(strconv.Itoa(i))),
		))
	}
	hasProviders := len(p.providers()) > 0
	title := "Run the benchmark against a model of a provider of " + p.runtimeFile()
	if !hasProviders {
		title = "The runtime file defines no providers: add one under providers: to run a model"
	}
	items = append(items, app.Div().Class("row").Body(
		app.Button().Type("button").ID("add-model").Class("small").Disabled(!hasProviders).Title(title).
			Text("+ Add a model").OnClick(p.onAddModel),
		app.If(len(p.otherBindings()) == 0 && p.bindings.Has(p.path), func() app.UI {
			return app.Span().Class("muted small").Text("The runtime file binds no other external system.")
		}),
	))
	return app.Div().ID("systems").Class("systems").Body(
		app.Div().Class("muted small").Text("AI-systems to run it against — each is one run of the same benchmark"),
		app.Div().Class("system-list").Body(items...),
	)
}

func (p *Page) onOwn(ctx app.Context, e app.Event) {
	p.systems.notOwn = !ctx.JSSrc().Get("checked").Bool()
}

func (p *Page) onBinding(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("dataset").Get("name").String()
	if p.systems.external == nil {
		p.systems.external = map[string]bool{}
	}
	p.systems.external[name] = ctx.JSSrc().Get("checked").Bool()
}

func (p *Page) onAddModel(ctx app.Context, e app.Event) {
	provs := p.providers()
	if len(provs) == 0 {
		return
	}
	p.systems.models = append(slices.Clone(p.systems.models), modelPick{provider: provs[0]})
}

func (p *Page) onModelProvider(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if i < len(p.systems.models) {
			p.systems.models[i].provider = ctx.JSSrc().Get("value").String()
		}
	}
}

func (p *Page) onModelName(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if i < len(p.systems.models) {
			p.systems.models[i].model = ctx.JSSrc().Get("value").String()
		}
	}
}

func (p *Page) onRemoveModel(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if i < len(p.systems.models) {
			p.systems.models = slices.Delete(slices.Clone(p.systems.models), i, i+1)
		}
	}
}

// onCancelRun cancels one of the runs followed side by side.
func (p *Page) onCancelRun(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		ctx.Async(func() {
			err := client.Default.Cancel(ctx, id)
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					p.runErr = err
				}
				p.loadRuns(ctx)
			})
		})
	}
}

// renderBatch shows the runs of one launch side by side, and links their leaderboard.
func (p *Page) renderBatch() app.UI {
	running := 0
	for _, r := range p.followed {
		if r.Active() {
			running++
		}
	}
	note := "all " + strconv.Itoa(len(p.followed)) + " runs ended"
	if running > 0 {
		note = strconv.Itoa(running) + " of " + strconv.Itoa(len(p.followed)) + " still running"
	}
	return app.Section().ID("live").Class("panel batch").DataSet("runs", len(p.followed)).Style("margin-bottom", "12px").Body(
		app.Div().Class("toolbar").Body(
			app.H2().Text("Runs of this launch"),
			app.Span().ID("batch-state").Class("muted").Text(note),
			app.Span().Class("sep"),
			app.A().ID("batch-leaderboard").Class("button"+map[bool]string{true: "", false: " primary"}[running > 0]).
				Href(ui.LeaderboardURL(p.path, "")).Text("Leaderboard →"),
		),
		live.Cards("live-cards", p.followed, p.onCancelRun),
	)
}
