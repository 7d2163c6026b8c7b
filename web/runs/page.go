package runs

import (
	"context"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /runs?benchmark=PATH[&run=ID]: pick a workspace benchmark, see which
// AI-system binding it uses, start a run and follow it live, and browse the benchmark's
// runs. The URL says what is shown, so a reload or a shared link shows the same.
type Page struct {
	app.Compo

	benches  ui.Load[[]api.Benchmark]   // the workspace's
	path     string                     // the benchmark shown
	file     ui.Load[api.BenchmarkFile] // its compiled form, keyed by its path
	bindings ui.Load[api.Bindings]

	limit       string
	concurrency string
	executor    string // "" this machine, else an executor of the runtime file (cluster.go)
	shards      string // a cluster run's shards, as typed; empty for the executor's
	// cache, startCost and startTokens are a model run's response cache mode and budget
	// for the next start, as typed (model.go); "" for the runtime file's mode, no budget.
	cache, startCost, startTokens string
	starting                      bool
	runErr                        error  // of the last start, cancel or resume
	note                          string // what the last cancel or resume did, when it succeeded
	notRun                        notRun // the systems the last start left out

	// maxCost and maxTokens are the larger budget a run its budget stopped is resumed with,
	// as typed (budget.go); budgetOf is the run they were filled in for.
	maxCost, maxTokens, budgetOf string

	runs  ui.Load[[]api.Run] // the benchmark's, keyed by its path
	picks []string

	systems systemPicks // the AI-systems the next start runs

	// followed are the runs the URL names (?run=, once per run): one is shown in full, the
	// runs of one launch side by side.
	followed []*live.Run

	// pageCtx is the context of the page's last navigation, which runs are followed
	// through: go-app drops what is dispatched through the context of an element that is
	// gone, and the button that started or resumed a run may be replaced when it renders.
	pageCtx app.Context
}

// defaultConcurrency is the concurrency a new run asks for unless the user says otherwise.
const defaultConcurrency = "4"

// runsLimit is how many of a benchmark's newest runs the list shows.
const runsLimit = 100

func (p *Page) OnMount(ctx app.Context) {
	if p.concurrency == "" {
		p.concurrency = defaultConcurrency
	}
}

func (p *Page) OnDismount() { p.stopFollowing() }

// OnNav shows what the URL names: on the first visit it loads the benchmark list and the
// bindings, on every visit the benchmark's runs, and it follows ?run= live.
func (p *Page) OnNav(ctx app.Context) {
	if p.concurrency == "" {
		p.concurrency = defaultConcurrency
	}
	q := ctx.Page().URL().Query()
	want, runIDs := q.Get("benchmark"), q["run"]
	if app.IsServer {
		p.path = want // the prerendered page names the benchmark; the rest comes from the browser
		return
	}
	p.pageCtx = ctx
	if !p.benches.Answered() && !p.benches.Busy {
		p.loadBenches(ctx)
	}
	if want == "" && len(runIDs) == 0 && p.path == "" && p.benches.OK && len(p.benches.Value) > 0 {
		want = p.benches.Value[0].Path
	}
	if want != "" {
		p.choose(ctx, want)
	}
	switch {
	case len(runIDs) > 0 && !slices.Equal(runIDs, p.followedIDs()):
		p.runErr, p.note = nil, ""
		p.follow(ctx, runIDs)
	case len(runIDs) == 0 && len(p.followed) > 0 && p.followed[0].Record.Benchmark != p.path:
		p.stopFollowing()
	}
}

// follow follows runs ids, in place of the runs followed so far.
func (p *Page) follow(ctx app.Context, ids []string) {
	ctx = p.pageCtx
	p.stopFollowing()
	for _, id := range ids {
		var known *api.Run
		for i, r := range p.runs.Value {
			if r.ID == id {
				known = &p.runs.Value[i]
			}
		}
		p.followed = append(p.followed, live.Follow(ctx, id, known, live.Hooks{
			Loaded: func(ctx app.Context, r *live.Run) {
				if b := r.Record.Benchmark; b != "" && b != p.path && len(p.followed) > 0 && p.followed[0] == r {
					p.choose(ctx, b)
				}
			},
			Ended: func(ctx app.Context, r *live.Run) {
				p.loadRuns(ctx)
				p.loadBenches(ctx) // the picker's "last score" (or "last run failed") is this run's now
			},
		}))
	}
}

// stopFollowing ends the streams of the followed runs.
func (p *Page) stopFollowing() {
	for _, r := range p.followed {
		r.Stop()
	}
	p.followed = nil
}

// followedIDs are the ids of the followed runs, in order.
func (p *Page) followedIDs() []string {
	ids := make([]string, len(p.followed))
	for i, r := range p.followed {
		ids[i] = r.ID
	}
	return ids
}

// followedRun is the followed run id, nil when it is not followed.
func (p *Page) followedRun(id string) *live.Run {
	for _, r := range p.followed {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// choose shows benchmark path: its compiled form and its runs.
func (p *Page) choose(ctx app.Context, path string) {
	if path == p.path && p.file.Key == path && p.file.Err == nil {
		return // shown, or on its way
	}
	p.path, p.runErr, p.notRun, p.note = path, nil, notRun{}, ""
	p.systems = systemPicks{}
	p.file.Reset()
	if !p.runs.Has(path) {
		p.runs.Reset()
		p.picks = nil
	}
	ui.Fetch(ctx, &p.file, path, func(c context.Context) (api.BenchmarkFile, error) {
		return client.Default.Benchmark(c, path)
	}, nil)
	p.loadBindings(ctx)
	p.loadRuns(ctx)
}

func (p *Page) loadBenches(ctx app.Context) {
	ui.Fetch(ctx, &p.benches, "", client.Default.Benchmarks, func(ctx app.Context) {
		if list := p.benches.Value; p.benches.Err == nil && p.path == "" && len(list) > 0 && len(p.followed) == 0 {
			p.choose(ctx, list[0].Path)
		}
	})
}

// loadBindings loads the bindings of the runtime file the shown benchmark binds through
// (the server's rule: the nearest at or above its folder), not only the workspace root's.
func (p *Page) loadBindings(ctx app.Context) {
	path := p.path
	ui.Fetch(ctx, &p.bindings, path, func(c context.Context) (api.Bindings, error) {
		return client.Default.Bindings(c, path)
	}, nil)
}

// loadRuns (re)loads the list of the shown benchmark's runs, and while one of them (other
// than the followed run) may still change, loads it again in a while.
func (p *Page) loadRuns(ctx app.Context) {
	path := p.path
	if path == "" {
		return
	}
	ui.Fetch(ctx, &p.runs, path, func(c context.Context) ([]api.Run, error) {
		rs, err := client.Default.Runs(c, client.RunsQuery{Benchmark: path, Limit: runsLimit})
		return rs.Runs, err
	}, func(ctx app.Context) {
		if p.runs.Err != nil || !p.othersActive() {
			return
		}
		ticket := p.runs.Ticket()
		ctx.After(listRefresh, func(ctx app.Context) {
			if p.runs.Current(ticket) && p.path == path {
				p.loadRuns(ctx)
			}
		})
	})
}

// listRefresh is how often the list of runs refreshes while a run it shows (other than
// the followed ones, which update live) is queued or running.
const listRefresh = 3 * time.Second

// othersActive reports whether a listed run other than the followed ones may still change.
func (p *Page) othersActive() bool {
	for _, r := range p.runs.Value {
		if p.followedRun(r.ID) == nil && api.Active(r.Status) {
			return true
		}
	}
	return false
}

// bench is the list entry of the shown benchmark, if the list has it.
func (p *Page) bench() *api.Benchmark {
	for i := range p.benches.Value {
		if p.benches.Value[i].Path == p.path {
			return &p.benches.Value[i]
		}
	}
	return nil
}

func (p *Page) onBenchmark(ctx app.Context, e app.Event) {
	if v := ui.Selected(ctx); v != "" && v != p.path {
		ctx.Navigate(ui.RunsURL(v, ""))
	}
}
