package leaderboard

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /leaderboard?benchmark=PATH[&dataset=DIGEST], or without a benchmark the list of
// the workspace's leaderboards.
type Page struct {
	app.Compo

	bench, dataset string // from the URL

	board    ui.Load[api.Leaderboard]   // keyed by bench and dataset
	benches  ui.Load[[]api.Benchmark]   // the workspace's: the list, and this benchmark's other files
	file     ui.Load[api.BenchmarkFile] // the benchmark's own AI-system, for a launch
	bindings ui.Load[api.Bindings]      // its runtime file's, for a launch

	picks []string // runs picked to compare, at most two

	launching bool
	launchErr error
	notRun    []live.NotRun // the systems the server refused to run, the others ran
	launched  []*live.Run   // the runs "Run every system" started

	// pageCtx is the context of the page's last navigation: updates dispatched through an
	// element's event context are dropped once the element goes (go-app's Dispatch checks
	// its source is mounted), and the "Run every system" button goes when its runs start.
	pageCtx app.Context
}

func (p *Page) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	bench, dataset := q.Get("benchmark"), q.Get("dataset")
	if app.IsServer {
		p.bench, p.dataset = bench, dataset
		return
	}
	p.pageCtx = ctx
	if bench != p.bench {
		p.stopLaunched()
		p.launchErr, p.notRun, p.picks = nil, nil, nil
		p.file.Reset()
		p.bindings.Reset()
	}
	p.bench, p.dataset = bench, dataset
	if !p.benches.OK && !p.benches.Busy {
		ui.Fetch(ctx, &p.benches, "", client.Default.Benchmarks, nil)
	}
	if bench == "" {
		p.board.Reset()
		return
	}
	p.loadBoard(ctx)
	if !p.file.Has(bench) && !p.file.Busy {
		ui.Fetch(ctx, &p.file, bench, func(c context.Context) (api.BenchmarkFile, error) {
			return client.Default.Benchmark(c, bench)
		}, nil)
		ui.Fetch(ctx, &p.bindings, bench, func(c context.Context) (api.Bindings, error) {
			return client.Default.Bindings(c, bench)
		}, nil)
	}
}

func (p *Page) OnDismount() { p.stopLaunched() }

// loadBoard (re)reads the board the URL names.
func (p *Page) loadBoard(ctx app.Context) {
	q := client.BoardQuery{Benchmark: p.bench, DatasetDigest: p.dataset}
	ui.Fetch(ctx, &p.board, p.bench+"\n"+p.dataset, func(c context.Context) (api.Leaderboard, error) {
		return client.Default.Leaderboard(c, q)
	}, nil)
}

func (p *Page) stopLaunched() {
	for _, r := range p.launched {
		r.Stop()
	}
	p.launched = nil
}

// ready reports whether the page shows what its requests answered.
func (p *Page) ready() bool {
	if p.bench == "" {
		return p.benches.Answered()
	}
	return p.board.Answered() && !p.board.Busy
}

func (p *Page) onDataset(ctx app.Context, e app.Event) {
	if v := ui.Selected(ctx); v != "" && v != p.dataset {
		p.picks = nil
		ctx.Navigate(ui.LeaderboardURL(p.bench, v))
	}
}

// onPick adds or removes a run from the two to compare; a third pick replaces the oldest.
func (p *Page) onPick(ctx app.Context, e app.Event) {
	id := ctx.JSSrc().Get("dataset").Get("run").String()
	on := ctx.JSSrc().Get("checked").Bool()
	out := make([]string, 0, 3)
	for _, x := range p.picks {
		if x != id {
			out = append(out, x)
		}
	}
	if on {
		out = append(out, id)
	}
	if len(out) > 2 {
		out = out[len(out)-2:]
	}
	p.picks = out
}

// compareHref compares the two picked runs, the better ranked as A: the difference reads
// as how far the other is from it.
func (p *Page) compareHref() string {
	if len(p.picks) != 2 {
		return ""
	}
	a, b := p.picks[0], p.picks[1]
	for _, e := range p.board.Value.Entries {
		if e.Run == b {
			a, b = b, a
			break
		}
		if e.Run == a {
			break
		}
	}
	return ui.CompareURL(a, b)
}

func (p *Page) onCompare(ctx app.Context, e app.Event) {
	if h := p.compareHref(); h != "" {
		ctx.Navigate(h)
	}
}

func (p *Page) onRefresh(ctx app.Context, e app.Event) { p.loadBoard(ctx) }
