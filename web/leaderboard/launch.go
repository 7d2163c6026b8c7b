package leaderboard

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// A launch: "Run every system" on an empty board.

// launchChoice is one system a launch runs, with the name the button shows for it.
type launchChoice struct {
	choice api.SystemChoice
	label  string
}

// everySystem is what "Run every system" runs: the benchmark's own AI-system, then the
// AI-systems of the workspace's other files of the same benchmark (the files that differ
// only in their ai-system:, as the language-id example's benchmark.yaml and baseline.yaml),
// each once. A benchmark with no such file runs its own and every other external system its
// runtime file binds. Runtime files bind systems for every benchmark of their folder
// (the examples' binds OCR and speech systems too): the benchmark's own files are the
// better word for which systems it is meant for, when there are any.
func everySystem(own *api.AISystem, siblings []*api.AISystem, bindings []string) []launchChoice {
	var out []launchChoice
	seen := map[string]bool{}
	add := func(c api.SystemChoice, label string) {
		if label != "" && !seen[label] {
			seen[label] = true
			out = append(out, launchChoice{c, label})
		}
	}
	if own != nil {
		add(api.SystemChoice{Own: true}, ui.SystemLabel(own))
	}
	for _, s := range siblings {
		if s == nil {
			continue
		}
		if s.Type == "model" {
			add(api.SystemChoice{Model: ui.SystemLabel(s)}, ui.SystemLabel(s))
		} else {
			add(api.SystemChoice{System: s.ID}, s.ID)
		}
	}
	if len(out) <= 1 {
		for _, b := range bindings {
			add(api.SystemChoice{System: b}, b)
		}
	}
	return out
}

// siblings are the workspace's other valid files of the shown benchmark's benchmark hash.
func (p *Page) siblings() []string {
	hash := ""
	for _, b := range p.benches.Value {
		if b.Path == p.bench {
			hash = b.BenchmarkHash
		}
	}
	if hash == "" {
		return nil
	}
	var out []string
	for _, b := range p.benches.Value {
		if b.Path != p.bench && b.Valid && b.BenchmarkHash == hash {
			out = append(out, b.Path)
		}
	}
	return out
}

// launchPlan is what the button would run now, nil while what it needs is loading. The
// other files' AI-systems are read when the button is pressed: the plan shown beside it
// names the files, the systems their file names.
func (p *Page) launchPlan() ([]launchChoice, bool) {
	if !p.file.Has(p.bench) || !p.bindings.Answered() || !p.benches.OK {
		return nil, false
	}
	return everySystem(p.file.Value.AISystem(), nil, p.bindings.Value.Bindings), true
}

// onRunEvery reads the AI-systems of the benchmark's other files, then starts one run per
// system in one request and follows them; the board is read again when all have ended. A
// system the server refuses (its program not installed here) is left out and said so, and
// the others run (live.Start).
func (p *Page) onRunEvery(ctx app.Context, e app.Event) {
	if p.launching || !p.file.Has(p.bench) {
		return
	}
	bench, own, bindings, others := p.bench, p.file.Value.AISystem(), p.bindings.Value.Bindings, p.siblings()
	p.launching, p.launchErr, p.notRun = true, nil, nil
	ctx = p.pageCtx
	ctx.Async(func() {
		var sibs []*api.AISystem
		for _, path := range others {
			if f, err := client.Default.Benchmark(ctx, path); err == nil {
				sibs = append(sibs, f.AISystem())
			}
		}
		plan := everySystem(own, sibs, bindings)
		req := api.StartRun{Benchmark: bench}
		labels := make([]string, 0, len(plan))
		for _, c := range plan {
			req.Systems = append(req.Systems, c.choice)
			labels = append(labels, c.label)
		}
		ids, notRun, err := live.Start(ctx, client.Default.StartRun, req, labels)
		ctx.Dispatch(func(ctx app.Context) {
			p.launching = false
			if bench != p.bench {
				return
			}
			p.launchErr, p.notRun = err, notRun
			if err == nil && len(ids) > 0 {
				p.follow(ctx, ids)
			}
		})
	})
}

// follow follows the launched runs; when the last ends, the board is read again.
func (p *Page) follow(ctx app.Context, ids []string) {
	p.stopLaunched()
	for _, id := range ids {
		p.launched = append(p.launched, live.Follow(ctx, id, nil, live.Hooks{
			Ended: func(ctx app.Context, r *live.Run) {
				for _, l := range p.launched {
					if !l.Ended {
						return
					}
				}
				p.loadBoard(ctx)
			},
		}))
	}
}

// renderEmpty says the board is empty, and offers to fill it with one click.
func (p *Page) renderEmpty(b *api.Leaderboard) app.UI {
	plan, known := p.launchPlan()
	var names []string
	for _, c := range plan {
		names = append(names, c.label)
	}
	what := strings.Join(names, ", ")
	if own, others := p.file.Value.AISystem(), p.siblings(); known && own != nil && len(others) > 0 {
		what = "this file's " + ui.SystemLabel(own) + " and the AI-systems of " + strings.Join(others, ", ")
	}
	msg := "No AI-system has a completed full run of this benchmark yet."
	if len(b.Datasets) > 0 {
		msg = "No AI-system has a completed full run of this benchmark on this dataset yet."
	}
	body := []app.UI{
		app.P().ID("board-empty-text").Text(msg),
	}
	switch {
	case len(p.launched) > 0:
		body = append(body, app.P().Class("muted").Text("Running "+ui.Plural(len(p.launched), "system")+"; the board is read again when they have all ended."))
	case known && len(plan) > 0 && p.file.Value.AISystem() != nil:
		label := "Run every system"
		if p.launching {
			label = "Starting…"
		}
		body = append(body, app.Div().Class("row").Body(
			app.Button().ID("run-every").Class("primary").Disabled(p.launching).Text(label).OnClick(p.onRunEvery),
			app.Span().ID("run-every-plan").Class("muted").Text("runs "+what+", one run each"),
		))
	case p.file.Err != nil:
		body = append(body, app.P().Class("error").Text("Cannot read the benchmark: "+ui.ErrText(p.file.Err)))
	case p.file.OK && p.file.Value.AISystem() == nil:
		body = append(body, app.P().Body(app.Text("The benchmark has problems; fix them before running it. "),
			app.A().Href(ui.EditorURL(p.bench)).Text("Open it in the editor")))
	}
	body = append(body, app.P().Class("muted small").Body(
		app.Text("Or "), app.A().Href(ui.RunsURL(p.bench, "")).Text("choose the systems on the runs page"), app.Text("."),
	))
	if len(p.launched) == 0 && len(p.notRun) > 0 {
		body = append(body, renderNotRun(p.notRun))
	}
	if p.launchErr != nil {
		err := p.launchErr
		body = append(body, app.Div().ID("launch-error").Class("notice error").Role("alert").Body(
			app.If(ui.ErrCode(err) != "", func() app.UI { return app.Code().Class("code").Text(ui.ErrCode(err) + ": ") }),
			app.Text(ui.ErrText(err)),
		))
	}
	return app.Section().ID("board-empty").Class("panel").Style("margin-bottom", "12px").Body(body...)
}

// renderNotRun says which systems a launch left out, and why: the server refused them.
func renderNotRun(notRun []live.NotRun) app.UI {
	lines := make([]app.UI, 0, len(notRun))
	for _, n := range notRun {
		lines = append(lines, app.Div().Class("not-run").DataSet("system", n.System).Text(n.Text()))
	}
	return app.Div().ID("launch-not-run").Class("notice").Role("status").Body(lines...)
}
