package web

import (
	"net/url"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// RunsPage is /runs?benchmark=PATH[&run=ID]: pick a workspace benchmark, see which
// AI-system binding it uses, start a run and follow it live, and browse the benchmark's
// runs. The URL says what is shown, so a reload or a shared link shows the same.
type RunsPage struct {
	app.Compo

	benches    []api.Benchmark
	benchesErr error
	benchesOK  bool // the list has loaded (it may be empty)
	benchesGo  bool // the list is being loaded

	path     string             // the benchmark shown
	file     *api.BenchmarkFile // its compiled form
	fileErr  error
	fileFor  string // the benchmark file was asked for
	bindings *api.Bindings
	bindErr  error

	limit       string
	concurrency string
	starting    bool
	runErr      error // of the last start, cancel or resume

	runs     []api.Run
	runsErr  error
	runsOK   bool
	runsPath string // the benchmark runs was loaded for
	runsGen  int    // counts list loads: a scheduled refresh of an older one is dropped
	picks    []string

	live liveRun // the run being followed
}

// defaultConcurrency is the concurrency a new run asks for unless the user says otherwise.
const defaultConcurrency = "4"

// runsLimit is how many of a benchmark's newest runs the list shows.
const runsLimit = 100

func (p *RunsPage) OnMount(ctx app.Context) {
	if p.concurrency == "" {
		p.concurrency = defaultConcurrency
	}
}

func (p *RunsPage) OnDismount() { p.live.stop() }

// OnNav shows what the URL names: on the first visit it loads the benchmark list and the
// bindings, on every visit the benchmark's runs, and it follows ?run= live.
func (p *RunsPage) OnNav(ctx app.Context) {
	if p.concurrency == "" {
		p.concurrency = defaultConcurrency
	}
	q := ctx.Page().URL().Query()
	want, runID := q.Get("benchmark"), q.Get("run")
	if app.IsServer {
		p.path = want // the prerendered page names the benchmark; the rest comes from the browser
		return
	}
	if !p.benchesOK && p.benchesErr == nil && !p.benchesGo {
		p.loadBenches(ctx)
		p.loadBindings(ctx)
	}
	if want == "" && runID == "" && p.path == "" && p.benchesOK && len(p.benches) > 0 {
		want = p.benches[0].Path
	}
	if want != "" {
		p.choose(ctx, want)
	}
	if runID != "" && runID != p.live.id {
		p.runErr = nil
		p.attach(ctx, runID)
	} else if runID == "" && p.live.id != "" && p.live.run.Benchmark != p.path {
		p.live.stop()
		p.live = liveRun{}
	}
}

// choose shows benchmark path: its compiled form and its runs.
func (p *RunsPage) choose(ctx app.Context, path string) {
	if path == p.path && p.fileFor == path && p.fileErr == nil {
		return // shown, or on its way
	}
	p.path, p.file, p.fileErr, p.runErr, p.fileFor = path, nil, nil, nil, path
	if path != p.runsPath {
		p.runs, p.runsOK, p.runsErr, p.picks = nil, false, nil, nil
	}
	ctx.Async(func() {
		var f api.BenchmarkFile
		err := Get(ctx, api.BenchmarkPath(path), &f)
		ctx.Dispatch(func(ctx app.Context) {
			if p.path != path {
				return
			}
			if err != nil {
				p.fileErr = err
				return
			}
			p.file = &f
		})
	})
	p.loadRuns(ctx)
}

func (p *RunsPage) loadBenches(ctx app.Context) {
	p.benchesGo = true
	ctx.Async(func() {
		var list []api.Benchmark
		err := Get(ctx, api.BenchmarksPath, &list)
		ctx.Dispatch(func(ctx app.Context) {
			p.benchesErr, p.benchesGo = err, false
			if err != nil {
				return
			}
			p.benches, p.benchesOK = list, true
			if p.path == "" && len(list) > 0 && p.live.id == "" {
				p.choose(ctx, list[0].Path)
			}
		})
	})
}

func (p *RunsPage) loadBindings(ctx app.Context) {
	ctx.Async(func() {
		var b api.Bindings
		err := Get(ctx, api.BindingsPath, &b)
		ctx.Dispatch(func(ctx app.Context) {
			p.bindErr = err
			if err == nil {
				p.bindings = &b
			}
		})
	})
}

// loadRuns (re)loads the list of the shown benchmark's runs.
func (p *RunsPage) loadRuns(ctx app.Context) {
	path := p.path
	if path == "" {
		return
	}
	p.runsGen++
	gen := p.runsGen
	ctx.Async(func() {
		var out struct {
			Runs []api.Run `json:"runs"`
		}
		err := Get(ctx, api.RunsQueryPath(url.Values{"benchmark": {path}, "limit": {strconv.Itoa(runsLimit)}}), &out)
		ctx.Dispatch(func(ctx app.Context) {
			if p.path != path {
				return
			}
			p.runsErr = err
			if err == nil {
				p.runs, p.runsOK, p.runsPath = out.Runs, true, path
			}
			if err == nil && p.othersActive() {
				ctx.After(listRefresh, func(ctx app.Context) {
					if p.runsGen == gen && p.path == path {
						p.loadRuns(ctx)
					}
				})
			}
		})
	})
}

// listRefresh is how often the list of runs refreshes while a run it shows (other than
// the followed one, which updates live) is queued or running.
const listRefresh = 3 * time.Second

// othersActive reports whether a listed run other than the followed one may still change.
func (p *RunsPage) othersActive() bool {
	for _, r := range p.runs {
		if r.ID != p.live.id && api.Active(r.Status) {
			return true
		}
	}
	return false
}

// bench is the list entry of the shown benchmark, if the list has it.
func (p *RunsPage) bench() *api.Benchmark {
	for i := range p.benches {
		if p.benches[i].Path == p.path {
			return &p.benches[i]
		}
	}
	return nil
}

func (p *RunsPage) onBenchmark(ctx app.Context, e app.Event) {
	if v := selected(ctx); v != "" && v != p.path {
		ctx.Navigate(runsURL(v, ""))
	}
}
