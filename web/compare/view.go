package compare

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

func (p *Page) Render() app.UI {
	return ui.Shell("/compare", app.Div().ID("compare-page").DataSet("ready", ui.ReadyFlag(p.ready())).Body(
		app.H1().Text("Compare runs"),
		p.renderPick(),
		p.renderResult(),
	))
}

// ready reports whether the page shows the comparison, or the choices when it has none.
func (p *Page) ready() bool {
	switch {
	case p.a != "" && p.b != "" && p.cmp.Err != nil:
		// a refusal names both runs' values, and the picker offers the runs that compare
		return !p.cmp.Busy && p.runA.Answered() && p.runB.Answered() && (p.cands.OK || p.pickErr() != nil)
	case p.a != "" && p.b != "":
		return !p.cmp.Busy && p.cmp.Answered()
	case p.a != "" || p.bench != "":
		return p.cands.OK || p.pickErr() != nil
	}
	return p.benches.Answered()
}

// renderPick chooses the benchmark, then runs A and B among its completed runs.
func (p *Page) renderPick() app.UI {
	if p.a == "" && p.bench == "" {
		switch {
		case p.benches.Err != nil:
			return app.Div().ID("compare-error").Class("notice error").Text(ui.ErrText(p.benches.Err))
		case !p.benches.OK:
			return app.P().Class("muted").Text("Loading benchmarks…")
		case len(p.benches.Value) == 0:
			return app.Div().Class("notice").Text("No benchmarks in this workspace yet.")
		}
		opts := []app.UI{app.Option().Value(ui.Placeholder).Text("choose a benchmark").Disabled(true).Selected(true)}
		for _, b := range p.benches.Value {
			opts = append(opts, app.Option().Value(b.Path).Text(b.Path))
		}
		return app.Div().ID("compare-pick").Class("panel toolbar").Body(
			app.Label().For("compare-benchmark").Text("Benchmark"),
			app.Select().ID("compare-benchmark").Body(opts...).OnChange(p.onBench),
		)
	}
	switch {
	case p.pickErr() != nil:
		return app.Div().ID("compare-pick").Class("notice error").Text(ui.ErrText(p.pickErr()))
	case !p.cands.OK:
		return app.Div().ID("compare-pick").Class("muted").Text("Loading runs…")
	case len(p.cands.Value) < 2:
		return app.Div().ID("compare-pick").Class("notice").Body(
			app.Text("Fewer than two completed runs of this benchmark: run it again to compare. "),
			app.A().Href(ui.RunsURL(p.benchPath(), "")).Text("Go to its runs"),
		)
	}
	runA := p.cand(p.selA)
	// A selected run that is not among the choices (another benchmark's, or no run at all,
	// from the URL) leaves the placeholder showing: the browser would show the first choice,
	// a run that is not the one compared.
	var optsA, optsB []app.UI
	listedA, listedB := false, false
	for _, r := range p.cands.Value {
		listedA = listedA || r.ID == p.selA
		optsA = append(optsA, app.Option().Value(r.ID).Text(candLabel(r)).Selected(r.ID == p.selA))
		if r.ID != p.selA && canCompare(runA, &r) {
			listedB = listedB || r.ID == p.selB
			optsB = append(optsB, app.Option().Value(r.ID).Text(candLabel(r)).Selected(r.ID == p.selB))
		}
	}
	optsA = append([]app.UI{app.Option().Value(ui.Placeholder).Text("run A").Disabled(true).Selected(!listedA)}, optsA...)
	optsB = append([]app.UI{app.Option().Value(ui.Placeholder).Text("run B").Disabled(true).Selected(!listedB)}, optsB...)
	ready := p.selA != "" && p.selB != "" && p.selA != p.selB
	return app.Div().ID("compare-pick").Class("panel toolbar").Style("margin-bottom", "12px").Body(
		app.Label().For("compare-a").Text("A"),
		app.Select().ID("compare-a").Body(optsA...).OnChange(p.onSelA),
		app.Label().For("compare-b").Text("B"),
		app.Select().ID("compare-b").Body(optsB...).OnChange(p.onSelB),
		app.Button().ID("compare-go").Class("primary").Disabled(!ready).Text("Compare").OnClick(p.onGo),
		app.If(p.a != "" && p.b != "", func() app.UI {
			return app.Button().ID("compare-swap").Text("Swap A and B").OnClick(p.onSwap)
		}),
		app.Span().Class("sep"),
		app.Span().Class("muted").Text("B lists the completed runs of A's benchmark and dataset with as many examples, of any AI-system"),
	)
}

func (p *Page) onSelA(ctx app.Context, e app.Event) {
	p.selA = ui.Selected(ctx)
	if !canCompare(p.cand(p.selA), p.cand(p.selB)) {
		p.selB = ""
	}
}

func (p *Page) onSelB(ctx app.Context, e app.Event) { p.selB = ui.Selected(ctx) }

// benchPath is the benchmark the runs belong to.
func (p *Page) benchPath() string {
	if p.runA.OK {
		return p.runA.Value.Benchmark
	}
	return p.bench
}

// candLabel is a run's line in the A and B selects.
func candLabel(r api.Run) string {
	s := ui.ShortID(r.ID)
	if rep := r.DecodeReport(); rep != nil {
		s += " · " + ui.ScorePtr(rep.BenchmarkScore)
	}
	s += " · " + ui.Time(r.CreatedAt)
	if name := ui.RunSystem(&r); name != "" {
		s += " · " + name
	}
	if r.Options.Limit > 0 {
		s += " · first " + ui.Int(r.Options.Limit)
	}
	return s
}

// renderResult shows the comparison of A and B.
func (p *Page) renderResult() app.UI {
	switch {
	case p.a == "" || p.b == "":
		return app.P().ID("compare-empty").Class("muted").Text("Choose two completed runs of the same benchmark to compare them.")
	case p.cmp.Err != nil:
		return p.renderRefusal(p.cmp.Err)
	case p.cmp.Busy || !p.cmp.OK:
		return app.P().Class("muted").Text("Comparing the runs, example by example…")
	}
	c := &p.cmp.Value
	return app.Div().ID("comparison").Body(
		p.renderCards(c),
		renderDeltaBars(c.Dimensions),
		p.renderFlips(c),
	)
}

// renderCards shows both scores and the difference with its paired interval.
func (p *Page) renderCards(c *api.Comparison) app.UI {
	verdict, class := "no significant difference", "muted"
	switch {
	case c.Interval.Method == "none" || c.Examples == 0:
		verdict = "no examples"
	case c.Interval.Low > 0:
		verdict, class = "B is better: the interval is above 0", "ok"
	case c.Interval.High < 0:
		verdict, class = "B is worse: the interval is below 0", "bad"
	}
	runCard := func(id, which string, score float64, label string) app.UI {
		return app.Div().Class("card").Body(
			app.Div().Class("muted").Body(app.Text(label+" "), app.A().Class("mono").Href(ui.ResultsURL(id, "")).Title(id).Text(ui.ShortID(id))),
			app.Div().ID("compare-score-"+which).Class("big").Text(ui.Score(score)),
		)
	}
	deltaClass := "big"
	if c.Delta < 0 {
		deltaClass += " bad"
	} else if c.Delta > 0 {
		deltaClass += " ok"
	}
	return app.Div().Class("cards compare-cards").Body(
		runCard(c.A, "a", c.ScoreA, "A"+p.systemOf(c.A)),
		runCard(c.B, "b", c.ScoreB, "B"+p.systemOf(c.B)),
		app.Div().Class("card delta-card").Body(
			app.Div().Class("muted").Text("B − A"),
			app.Div().ID("compare-delta").Class(deltaClass).DataSet("value", strconv.FormatFloat(c.Delta, 'g', -1, 64)).Text(ui.Signed(c.Delta)),
			app.Div().ID("compare-ci").Class("muted").Title(c.Interval.Method).
				Text(ui.Level(c.Interval)+" "+ui.SignedInterval(c.Interval)),
			app.Div().ID("compare-verdict").Class(class).Text(verdict),
		),
		app.Div().Class("card").Body(
			app.Div().Class("muted").Text("examples"),
			app.Div().ID("compare-examples").Class("big").Text(ui.Int(c.Examples)),
			app.Div().Class("muted").Body(
				app.Span().ID("compare-improved").Class("ok").Text(ui.Int(c.Improved)+" improved"), app.Text(" · "),
				app.Span().ID("compare-regressed").Class("bad").Text(ui.Int(c.Regressed)+" regressed"),
			),
		),
	)
}

// renderDeltaBars charts each dimension's accuracy difference around a middle line:
// right for B better, left (.neg) for worse, full half-width at 100 points.
func renderDeltaBars(dims []api.CompareDimension) app.UI {
	bars := make([]app.UI, 0, len(dims)+1)
	if len(dims) == 0 {
		bars = append(bars, app.P().Class("muted").Text("No dimension had a valid example in both runs."))
	}
	for _, d := range dims {
		accA, accB := ui.NoValue, ui.NoValue
		if d.AccuracyA != nil {
			accA = ui.Pct(*d.AccuracyA)
		}
		if d.AccuracyB != nil {
			accB = ui.Pct(*d.AccuracyB)
		}
		fill := app.Div().Class("fill").Style("width", "0%")
		value := ui.NoValue
		if d.Delta != nil {
			v := *d.Delta
			value = ui.Points(v)
			fill = app.Div().Class("fill").Style("width", ui.BarWidth(math.Abs(v)/2))
			if v < 0 {
				fill = app.Div().Class("fill neg").Style("width", ui.BarWidth(math.Abs(v)/2))
			}
		}
		bars = append(bars, app.Div().Class("bar").DataSet("path", ui.Dotted(d.Path)).Title("A "+accA+" → B "+accB).Body(
			app.Span().Class("label").Body(app.Span().Class("mono").Text(ui.Dotted(d.Path)),
				app.Span().Class("muted").Text(" "+accA+" → "+accB)),
			app.Div().Class("track diverging").Body(fill),
			app.Span().Class("value").Text(value),
		))
	}
	return app.Section().Class("panel").Style("margin-bottom", "12px").Body(
		app.H2().Text("Accuracy per dimension, B − A"),
		app.P().Class("muted").Text("Among each run's valid examples."),
		app.Div().ID("compare-dimensions").Class("bars delta-bars").Body(bars...),
	)
}

// renderFlips lists the examples whose outcome changed, a hundred at a time.
func (p *Page) renderFlips(c *api.Comparison) app.UI {
	head := app.H2().Text("Changed examples")
	if len(c.Flips) == 0 {
		return app.Section().Class("panel").Body(head,
			app.P().ID("no-flips").Class("muted").Text("No example changed: both runs scored every example the same."))
	}
	n := min(max(p.flipsShow, flipsStep), len(c.Flips))
	rows := make([]app.UI, 0, n)
	for _, f := range c.Flips[:n] {
		d := f.QB - f.QA
		class := "flip"
		if d > 0 {
			class += " improved"
		} else if d < 0 {
			class += " regressed"
		}
		rows = append(rows, app.Tr().Class(class).DataSet("index", f.Index).Body(
			app.Td().Class("index").Text(strconv.Itoa(f.Index)),
			app.Td().Body(app.Span().Class("badge "+f.StatusA).Text(f.StatusA), app.Text(" "), app.Span().Class("mono").Text(ui.Score(f.QA))),
			ui.JSONCell("prediction-a", f.PredictionA),
			app.Td().Body(app.Span().Class("badge "+f.StatusB).Text(f.StatusB), app.Text(" "), app.Span().Class("mono").Text(ui.Score(f.QB))),
			ui.JSONCell("prediction-b", f.PredictionB),
			app.Td().Class(map[bool]string{true: "mono ok", false: "mono bad"}[d >= 0]).Text(ui.Signed(d)),
		))
	}
	note := ui.Plural(len(c.Flips), "changed example")
	if len(c.Flips) >= api.MaxFlips {
		note = "the first " + ui.Int(len(c.Flips)) + " changed examples (the server lists at most " + ui.Int(api.MaxFlips) + ")"
	}
	return app.Section().Class("panel").Body(
		app.Div().Class("toolbar").Body(head, app.Span().Class("muted").Text("showing "+ui.Int(n)+" of "+note)),
		app.Table().ID("flips").Class("data").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("#"), app.Th().Text("A: status, score"), app.Th().Text("A answered"),
				app.Th().Text("B: status, score"), app.Th().Text("B answered"), app.Th().Text("B − A"))),
			app.TBody().Body(rows...),
		),
		app.If(n < len(c.Flips), func() app.UI {
			return app.Button().ID("flips-more").Text("Show " + ui.Int(min(flipsStep, len(c.Flips)-n)) + " more").OnClick(p.onMore)
		}),
	)
}

// systemOf is " · label" of run id's AI-system when the page has the run, for the cards.
func (p *Page) systemOf(id string) string {
	for _, l := range []*ui.Load[api.Run]{&p.runA, &p.runB} {
		if l.Has(id) && ui.RunSystem(&l.Value) != "" {
			return " · " + ui.RunSystem(&l.Value)
		}
	}
	return ""
}

// renderRefusal says why the server did not compare the runs: for two runs of different
// datasets or benchmarks a sentence with the two values, then the server's own words.
func (p *Page) renderRefusal(err error) app.UI {
	code := ui.ErrCode(err)
	var a, b *api.Run
	if p.runA.Has(p.a) {
		a = &p.runA.Value
	}
	if p.runB.Has(p.b) {
		b = &p.runB.Value
	}
	body := []app.UI{}
	if s := refusalSentence(code, a, b); s != "" {
		body = append(body, app.P().ID("compare-why").Style("margin", "0 0 4px").Body(app.Strong().Text(s)))
	}
	body = append(body, app.Div().Body(
		app.If(code != "", func() app.UI { return app.Code().Text(code + ": ") }),
		app.Text(ui.ErrText(err)),
	))
	return app.Div().ID("compare-error").Class("notice error").DataSet("code", code).Body(body...)
}

// refusalSentence is the plain sentence for a refusal of code, naming the two runs' short
// digests or hashes when the page has the runs; "" for other refusals.
func refusalSentence(code string, a, b *api.Run) string {
	pair := func(get func(r *api.Run) string) string {
		if a == nil || b == nil {
			return ""
		}
		short := func(r *api.Run) string {
			if v := get(r); v != "" {
				return ui.ShortHash(v)
			}
			return "not recorded"
		}
		return " (A " + short(a) + ", B " + short(b) + ")"
	}
	switch code {
	case string(api.DifferentDatasets):
		if a != nil && b != nil && (a.DatasetDigest == "" || b.DatasetDigest == "") {
			return "These runs cannot be compared: the dataset of one was not recorded (it ran before Benchy recorded datasets), so whether they took the same exam is unknown" +
				pair(func(r *api.Run) string { return r.DatasetDigest }) + "."
		}
		return "These runs took different datasets: the dataset changed between them" + pair(func(r *api.Run) string { return r.DatasetDigest }) + "."
	case string(api.DifferentBenchmarks):
		return "These runs are of different benchmarks: their program, scoring or classification differ" + pair(func(r *api.Run) string { return r.BenchmarkHash }) + "."
	case string(api.DifferentLengths):
		return "These runs evaluated different numbers of examples: run both on the whole dataset, or with the same limit."
	}
	return ""
}
