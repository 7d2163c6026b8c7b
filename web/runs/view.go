package runs

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

func (p *Page) Render() app.UI {
	return ui.Shell("/runs",
		app.Div().ID("runs-page").DataSet("ready", ui.ReadyFlag(p.ready())).Body(
			app.H1().Text("Runs"),
			p.renderPicker(),
			app.If(p.path != "", func() app.UI {
				return app.Div().Body(p.renderSetup(), p.renderLive(), p.renderList())
			}),
		),
	)
}

// ready reports whether the page shows what its requests answered: the benchmarks, the
// chosen one's file and runs, and the followed run.
func (p *Page) ready() bool {
	switch {
	case p.benches.Err != nil:
		return true
	case !p.benches.OK:
		return false
	case p.path == "":
		return true
	}
	if !p.file.Answered() || !p.runs.Has(p.path) && p.runs.Err == nil {
		return false
	}
	for _, l := range p.followed {
		if !l.Loaded && l.Err == nil {
			return false
		}
	}
	return true
}

// renderPicker is the benchmark select, or why there is none.
func (p *Page) renderPicker() app.UI {
	benches := p.benches.Value
	opts := make([]app.UI, 0, len(benches)+1)
	if !slices.ContainsFunc(benches, func(b api.Benchmark) bool { return b.Path == p.path }) {
		label := "choose a benchmark"
		if p.path != "" {
			label = p.path
		}
		opts = append(opts, app.Option().Value(ui.Placeholder).Text(label).Disabled(true).Selected(true))
	}
	for _, b := range benches {
		opts = append(opts, app.Option().Value(b.Path).Text(benchLabel(b)).Selected(b.Path == p.path))
	}
	bar := app.Div().Class("toolbar").Body(
		app.Label().For("benchmark").Text("Benchmark"),
		app.Select().ID("benchmark").Body(opts...).OnChange(p.onBenchmark),
		app.If(p.path != "", func() app.UI {
			return app.A().ID("edit-benchmark").Href(ui.EditorURL(p.path)).Text("open in the editor")
		}),
	)
	switch {
	case p.benches.Err != nil:
		return app.Div().Body(bar, app.Div().ID("runs-offline").Class("notice error").Body(
			app.Text(ui.ErrText(p.benches.Err)+" "),
			app.Button().ID("retry").Class("small").Text("Try again").OnClick(p.onRetry),
		))
	case p.benches.OK && len(benches) == 0:
		return app.Div().Body(bar, app.Div().ID("no-benchmarks").Class("notice").Body(
			app.Text("No benchmarks in this workspace yet. "),
			app.A().Href("/").Text("Write one in the editor"),
			app.Text(" and save it to run it here."),
		))
	case !p.benches.OK && p.path == "":
		return app.Div().Body(bar, app.P().Class("muted").Text("Loading the workspace's benchmarks…"))
	}
	return bar
}

// benchLabel is a benchmark's line in the select: its path, validity and last score.
func benchLabel(b api.Benchmark) string {
	s := b.Path
	if !b.Valid {
		s += " — invalid (" + ui.Plural(b.Diagnostics, "problem") + ")"
	} else if b.Task != "" {
		s += " — " + b.Task
	}
	switch {
	case b.LastScore != nil && b.LastFailed:
		s += " — last run " + ui.FailedInfra
	case b.LastScore != nil:
		s += " — last score " + ui.Score(*b.LastScore)
	case b.LastPartial != nil && b.LastPartial.Score != nil:
		s += " — partial score " + ui.Score(*b.LastPartial.Score) + " (first " + ui.Int(b.LastPartial.Examples) + ")"
	}
	return s
}

// renderSetup describes the benchmark and its binding, and starts a run.
func (p *Page) renderSetup() app.UI {
	b := p.bench()
	info := []app.UI{app.H2().Text(p.path)}
	if b != nil {
		tags := app.Div().Class("row").Body(
			app.If(b.Valid, func() app.UI { return app.Span().Class("badge ok").Text("valid") }).
				Else(func() app.UI {
					return app.Span().Class("badge bad").Text("invalid: " + ui.Plural(b.Diagnostics, "problem"))
				}),
			app.If(b.Task != "", func() app.UI {
				return app.Span().Class("muted").Text(b.Task + " · " + b.Domain + " · " + langLabel(b.Language))
			}),
			app.If(b.LastScore != nil && b.LastFailed, func() app.UI {
				return app.Span().ID("last-score").Class("badge failed").Title("most examples of the last run were execution errors: its score measures the setup, not the system").
					Body(app.Text("last run "), app.A().Href(ui.ResultsURL(b.LastRun, "")).Text(ui.FailedInfra))
			}).ElseIf(b.LastScore != nil, func() app.UI {
				return app.Span().ID("last-score").Body(app.Text("last score "), app.A().Href(ui.ResultsURL(b.LastRun, "")).Text(ui.ScorePtr(b.LastScore)))
			}),
			app.If(b.LastPartial != nil, func() app.UI {
				lp := b.LastPartial
				return app.Span().ID("last-partial").Class("muted").Body(app.Text("latest partial run "),
					app.A().Href(ui.ResultsURL(lp.ID, "")).Text(ui.ScorePtr(lp.Score)), app.Text(" "),
					partialBadge("first "+ui.Int(lp.Examples)))
			}),
		)
		info = append(info, tags)
	}
	info = append(info, p.renderBinding())
	choices := p.picked()
	form := app.Form().Class("toolbar").ID("run-form").NoValidate(true).OnSubmit(p.onStart).Body(
		app.Label().For("limit").Text("Examples"),
		app.Input().ID("limit").Type("number").Min(1).Placeholder("all").Value(p.limit).
			Title("Evaluate only the first N examples; empty for all").OnInput(p.ValueTo(&p.limit)),
		app.Label().For("concurrency").Text("Concurrency"),
		app.Input().ID("concurrency").Type("number").Min(1).Max(256).Value(p.concurrency).
			Title("How many examples the AI-system gets at once").OnInput(p.ValueTo(&p.concurrency)),
		p.renderExecutor(),
		p.renderModelOptions(),
		app.Button().ID("start").Type("submit").Class("primary").Disabled(p.starting || len(choices) == 0).
			Title(map[bool]string{true: "Check at least one AI-system above", false: "Start a run of each checked AI-system"}[len(choices) == 0]).
			Text(startLabel(choices, p.starting)),
		app.Span().Class("sep"),
		app.A().ID("leaderboard-link").Class("button").Href(ui.LeaderboardURL(p.path, "")).
			Title("Every AI-system's latest completed run of this benchmark, ranked").Text("Leaderboard"),
	)
	return app.Section().ID("run-setup").Class("panel").Style("margin-bottom", "12px").Body(
		app.Style().Text(systemsCSS),
		app.Div().Body(info...),
		p.renderSystems(),
		form,
		p.renderRunError(),
		p.renderNote(),
		p.renderNotRun(),
	)
}

// renderBinding says which binding or provider of the runtime file the benchmark's
// AI-system uses, and whether the workspace has it.
func (p *Page) renderBinding() app.UI {
	line := func(class string, body ...app.UI) app.UI {
		return app.P().ID("binding").Class("binding " + class).Body(body...)
	}
	switch {
	case p.file.Err != nil:
		return line("error", app.Text("Cannot read the benchmark: "+ui.ErrText(p.file.Err)))
	case !p.file.OK:
		return line("muted", app.Text("Reading the benchmark…"))
	}
	sys := p.file.Value.AISystem()
	if sys == nil {
		return line("error",
			app.Text("This benchmark has "+ui.Plural(len(p.file.Value.Diagnostics), "problem")+"; fix them before running it. "),
			app.A().Href(ui.EditorURL(p.path)).Text("Open it in the editor"),
		)
	}
	what := []app.UI{app.Text("AI-system ")}
	kind, names := "binding", []string(nil)
	if sys.Type == "model" {
		kind = "provider"
		what = append(what, app.Code().Text(sys.Model), app.Text(" (model) from provider "))
		if p.bindings.OK {
			names = p.bindings.Value.Providers
		}
	} else {
		what = append(what, app.Code().Text(sys.ID), app.Text(" (external) via binding "))
		if p.bindings.OK {
			names = p.bindings.Value.Bindings
		}
	}
	name := sys.BindingName()
	what = append(what, app.Strong().ID("binding-name").Text(name), app.Text(" — "))
	switch {
	case p.bindings.Err != nil:
		return line("error", append(what, app.Text(ui.ErrText(p.bindings.Err)))...)
	case !p.bindings.Has(p.path):
		return line("muted", append(what, app.Text("checking the runtime file…"))...)
	case p.bindings.Value.RuntimeFile == "":
		return line("bad", append(what, app.Span().Class("bad").Text("✗ no benchy.runtime.yaml beside the benchmark or in a folder above it: a run will be refused (missing_binding)"))...)
	case slices.Contains(names, name):
		return line("ok", append(what, app.Span().Class("ok").Text("✓ defined in "+p.bindings.Value.RuntimeFile))...)
	}
	return line("bad", append(what, app.Span().Class("bad").Text("✗ no "+kind+" named "+strconv.Quote(name)+
		" in "+p.bindings.Value.RuntimeFile+": a run will be refused (missing_binding)"))...)
}

// renderRunError shows why a start, cancel or resume failed.
func (p *Page) renderRunError() app.UI {
	if p.runErr == nil {
		return app.Div().ID("run-error").Hidden(true)
	}
	body := []app.UI{}
	if code := ui.ErrCode(p.runErr); code != "" {
		body = append(body, app.Code().Class("code").Text(code), app.Text(": "))
	}
	body = append(body, app.Text(ui.ErrText(p.runErr)))
	switch ui.ErrCode(p.runErr) {
	case "missing_binding":
		hint := "Add the binding to " + p.runtimeFile() + " (a command or an http endpoint), then start again."
		if msg := ui.ErrText(p.runErr); strings.Contains(msg, "not installed") || strings.Contains(msg, "does not exist") {
			hint = "The binding is there, but what it runs is not on the server's machine: install or build it as the message says, then start again."
		} else if strings.Contains(msg, "provider") {
			hint = "Define the provider under providers: in " + p.runtimeFile() + ", then start again."
		}
		body = append(body, app.Br(), app.Span().Class("muted").Text(hint))
	case "invalid_benchmark":
		body = append(body, app.Text(" "), app.A().Href(ui.EditorURL(p.path)).Text("Open it in the editor"))
	}
	return app.Div().ID("run-error").Class("notice error").Role("alert").Body(body...)
}

// renderNote says that a cancel or a resume was done: a success, green, not a warning.
func (p *Page) renderNote() app.UI {
	if p.note == "" {
		return app.Div().ID("run-note").Hidden(true)
	}
	return app.Div().ID("run-note").Class("notice ok").Role("status").Text(p.note)
}

// runtimeFile names the runtime file the shown benchmark binds through, for hints.
func (p *Page) runtimeFile() string {
	if p.bindings.Has(p.path) && p.bindings.Value.RuntimeFile != "" {
		return p.bindings.Value.RuntimeFile
	}
	return "benchy.runtime.yaml beside the benchmark or in a folder above it"
}

// systemsCSS lays out the list of AI-systems to run.
const systemsCSS = `
#systems { margin: 10px 0; }
#systems .system-list { display: flex; flex-direction: column; gap: 2px; margin-top: 4px; }
#systems label.system-choice { display: flex; gap: 6px; align-items: center; margin: 0; font-size: 13px; color: var(--ink); cursor: pointer; }
#systems .model-row { gap: 6px; margin: 2px 0; }
#systems .model-name { width: 240px; }
#systems #add-model { margin-top: 4px; }
`
