package web

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// ComparePage is /compare?a=ID&b=ID: run B against run A of the same benchmark — the
// score difference with its paired interval, per-dimension differences and the examples
// whose outcome changed. Without both runs it lets the user pick them: ?a=ID lists the
// runs of A's IR, ?benchmark=PATH that benchmark's runs, and nothing the benchmarks.
type ComparePage struct {
	app.Compo

	a, b, bench string // from the URL

	cmp     *api.Comparison
	cmpErr  error
	loading bool

	runA      *api.Run
	cands     []api.Run // completed runs to choose from
	candsErr  error
	candsOK   bool
	candsKey  string // what cands was loaded for
	benches   []api.Benchmark
	benchErr  error
	selA      string
	selB      string
	flipsShow int
}

// flipsStep is how many more changed examples "show more" adds.
const flipsStep = 100

func (p *ComparePage) OnNav(ctx app.Context) {
	q := ctx.Page().URL().Query()
	a, b, bench := q.Get("a"), q.Get("b"), q.Get("benchmark")
	if app.IsServer {
		p.a, p.b, p.bench = a, b, bench
		return
	}
	changed := a != p.a || b != p.b || p.cmp == nil && p.cmpErr == nil
	p.a, p.b, p.bench = a, b, bench
	p.selA, p.selB = a, b
	if a != "" && b != "" && changed {
		p.loadComparison(ctx)
	} else if a == "" || b == "" {
		p.cmp, p.cmpErr = nil, nil
	}
	switch {
	case a != "":
		if p.runA == nil || p.runA.ID != a {
			p.loadRunA(ctx)
		}
	case bench != "":
		p.runA = nil
		p.loadCands(ctx, url.Values{"benchmark": {bench}})
	default:
		p.runA = nil
		if p.benches == nil {
			p.loadBenches(ctx)
		}
	}
}

func (p *ComparePage) loadComparison(ctx app.Context) {
	a, b := p.a, p.b
	p.cmp, p.cmpErr, p.loading, p.flipsShow = nil, nil, true, flipsStep
	ctx.Async(func() {
		var c api.Comparison
		err := Get(ctx, api.ComparePath(a, b), &c)
		ctx.Dispatch(func(ctx app.Context) {
			if p.a != a || p.b != b {
				return
			}
			p.loading, p.cmpErr = false, err
			if err == nil {
				p.cmp = &c
			}
		})
	})
}

// loadRunA reads run A, then the completed runs of its IR to choose B from.
func (p *ComparePage) loadRunA(ctx app.Context) {
	a := p.a
	ctx.Async(func() {
		var r api.Run
		err := Get(ctx, api.RunPath(a), &r)
		ctx.Dispatch(func(ctx app.Context) {
			if p.a != a {
				return
			}
			if err != nil {
				p.candsErr = err
				return
			}
			p.runA = &r
			p.loadCands(ctx, url.Values{"ir_hash": {r.IRHash}})
		})
	})
}

func (p *ComparePage) loadCands(ctx app.Context, q url.Values) {
	q.Set("limit", "1000")
	key := q.Encode()
	if key == p.candsKey && p.candsOK {
		return
	}
	p.candsKey, p.candsOK, p.candsErr = key, false, nil
	ctx.Async(func() {
		var out struct {
			Runs []api.Run `json:"runs"`
		}
		err := Get(ctx, api.RunsQueryPath(q), &out)
		ctx.Dispatch(func(ctx app.Context) {
			if p.candsKey != key {
				return
			}
			p.candsErr = err
			if err != nil {
				return
			}
			p.cands, p.candsOK = nil, true
			for _, r := range out.Runs {
				if r.Status == api.Completed {
					p.cands = append(p.cands, r)
				}
			}
		})
	})
}

func (p *ComparePage) loadBenches(ctx app.Context) {
	ctx.Async(func() {
		var list []api.Benchmark
		err := Get(ctx, api.BenchmarksPath, &list)
		ctx.Dispatch(func(ctx app.Context) {
			p.benchErr = err
			if err == nil {
				p.benches = list
				if p.benches == nil {
					p.benches = []api.Benchmark{}
				}
			}
		})
	})
}

// cand is candidate run id, nil when it is not listed.
func (p *ComparePage) cand(id string) *api.Run {
	for i := range p.cands {
		if p.cands[i].ID == id {
			return &p.cands[i]
		}
	}
	return nil
}

// canCompare reports whether run b can be compared with run a: the server compares runs
// of the same IR with as many examples. An unknown a allows any b.
func canCompare(a, b *api.Run) bool {
	return a == nil || b != nil && a.ID != b.ID && a.IRHash == b.IRHash && a.Total == b.Total
}

func (p *ComparePage) onBench(ctx app.Context, e app.Event) {
	if v := selected(ctx); v != "" {
		ctx.Navigate("/compare?" + url.Values{"benchmark": {v}}.Encode())
	}
}

func (p *ComparePage) onGo(ctx app.Context, e app.Event) {
	if p.selA != "" && p.selB != "" && p.selA != p.selB {
		ctx.Navigate(compareURL(p.selA, p.selB))
	}
}

func (p *ComparePage) onSwap(ctx app.Context, e app.Event) {
	ctx.Navigate(compareURL(p.b, p.a))
}

func (p *ComparePage) onMore(ctx app.Context, e app.Event) { p.flipsShow += flipsStep }
