package compare

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /compare?a=ID&b=ID: run B against run A of the same benchmark — the
// score difference with its paired interval, per-dimension differences and the examples
// whose outcome changed. Without both runs it lets the user pick them: ?a=ID lists the
// runs of A's IR, ?benchmark=PATH that benchmark's runs, and nothing the benchmarks.
type Page struct {
	app.Compo

	a, b, bench string // from the URL

	cmp     ui.Load[api.Comparison]  // keyed by "A B"
	runA    ui.Load[api.Run]         // keyed by A
	runB    ui.Load[api.Run]         // keyed by B: its identities, when the server refuses the pair
	cands   ui.Load[[]api.Run]       // completed runs to choose from, keyed by their query
	benches ui.Load[[]api.Benchmark] // to choose a benchmark from, without A

	selA      string
	selB      string
	flipsShow int
}

// flipsStep is how many more changed examples "show more" adds.
const flipsStep = 100

func (p *Page) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	a, b, bench := q.Get("a"), q.Get("b"), q.Get("benchmark")
	if app.IsServer {
		p.a, p.b, p.bench = a, b, bench
		return
	}
	changed := a != p.a || b != p.b || !p.cmp.Answered()
	p.a, p.b, p.bench = a, b, bench
	p.selA, p.selB = a, b
	if a != "" && b != "" && changed {
		p.loadComparison(ctx)
	} else if a == "" || b == "" {
		p.cmp.Reset()
	}
	if b != "" && !p.runB.Has(b) {
		ui.Fetch(ctx, &p.runB, b, func(c context.Context) (api.Run, error) { return client.Default.Run(c, b) }, nil)
	}
	switch {
	case a != "":
		if !p.runA.Has(a) {
			p.loadRunA(ctx)
		}
	case bench != "":
		p.runA.Reset()
		p.loadCands(ctx, client.RunsQuery{Benchmark: bench})
	default:
		p.runA.Reset()
		if !p.benches.OK && !p.benches.Busy {
			p.loadBenches(ctx)
		}
	}
}

func (p *Page) loadComparison(ctx app.Context) {
	a, b := p.a, p.b
	p.cmp.Reset()
	p.flipsShow = flipsStep
	ui.Fetch(ctx, &p.cmp, a+" "+b, func(c context.Context) (api.Comparison, error) {
		return client.Default.Compare(c, a, b)
	}, nil)
}

// loadRunA reads run A, then the completed runs of its benchmark, whatever their
// AI-system, to choose B from.
func (p *Page) loadRunA(ctx app.Context) {
	a := p.a
	ui.Fetch(ctx, &p.runA, a, func(c context.Context) (api.Run, error) {
		return client.Default.Run(c, a)
	}, func(ctx app.Context) {
		if p.runA.Err != nil {
			return
		}
		if h := p.runA.Value.BenchmarkHash; h != "" {
			p.loadCands(ctx, client.RunsQuery{BenchmarkHash: h})
		} else {
			p.loadCands(ctx, client.RunsQuery{IRHash: p.runA.Value.IRHash})
		}
	})
}

// candsLimit is how many runs the A and B selects choose from at most.
const candsLimit = 1000

// loadCands lists the completed runs q selects, unless they are shown already.
func (p *Page) loadCands(ctx app.Context, q client.RunsQuery) {
	q.Limit = candsLimit
	key := q.Benchmark + "\n" + q.IRHash + "\n" + q.BenchmarkHash
	if p.cands.Has(key) {
		return
	}
	p.cands.Reset()
	ui.Fetch(ctx, &p.cands, key, func(c context.Context) ([]api.Run, error) {
		rs, err := client.Default.Runs(c, q)
		var done []api.Run
		for _, r := range rs.Runs {
			// a server that does not filter by benchmark hash lists every run
			if r.Status == api.Completed && (q.BenchmarkHash == "" || r.BenchmarkHash == q.BenchmarkHash) {
				done = append(done, r)
			}
		}
		return done, err
	}, nil)
}

func (p *Page) loadBenches(ctx app.Context) {
	ui.Fetch(ctx, &p.benches, "", client.Default.Benchmarks, nil)
}

// pickErr is why the runs to choose from cannot be shown: run A, or their list, failed.
func (p *Page) pickErr() error {
	if p.runA.Err != nil {
		return p.runA.Err
	}
	return p.cands.Err
}

// cand is candidate run id, nil when it is not listed.
func (p *Page) cand(id string) *api.Run {
	for i := range p.cands.Value {
		if p.cands.Value[i].ID == id {
			return &p.cands.Value[i]
		}
	}
	return nil
}

// canCompare reports whether run b can be compared with run a: the server compares runs of
// one benchmark (benchmark hash) that took one recorded dataset, with as many examples,
// whatever their AI-systems. Runs from before Benchy recorded those are compared by IR
// hash, as they were. An unknown a allows any b.
func canCompare(a, b *api.Run) bool {
	if a == nil {
		return true
	}
	if b == nil || a.ID == b.ID || a.Total != b.Total {
		return false
	}
	if a.BenchmarkHash == "" || b.BenchmarkHash == "" {
		return a.IRHash == b.IRHash
	}
	return a.BenchmarkHash == b.BenchmarkHash && a.DatasetDigest != "" && a.DatasetDigest == b.DatasetDigest
}

func (p *Page) onBench(ctx app.Context, e app.Event) {
	if v := ui.Selected(ctx); v != "" {
		ctx.Navigate(ui.ComparePickURL(v))
	}
}

func (p *Page) onGo(ctx app.Context, e app.Event) {
	if p.selA != "" && p.selB != "" && p.selA != p.selB {
		ctx.Navigate(ui.CompareURL(p.selA, p.selB))
	}
}

func (p *Page) onSwap(ctx app.Context, e app.Event) {
	ctx.Navigate(ui.CompareURL(p.b, p.a))
}

func (p *Page) onMore(ctx app.Context, e app.Event) { p.flipsShow += flipsStep }
