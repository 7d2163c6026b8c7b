package leaderboard

import (
	"math"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// axis is the score range a forest plot draws, the same for every row.
type axis struct{ lo, hi float64 }

// plotAxis covers every entry's interval, widened to tenths and at least 0.2 wide, within
// [0, 1]: the scores are shares of examples.
func plotAxis(entries []api.LeaderboardEntry) axis {
	lo, hi := 1.0, 0.0
	for _, e := range entries {
		lo = math.Min(lo, math.Min(e.Interval.Low, e.Score))
		hi = math.Max(hi, math.Max(e.Interval.High, e.Score))
	}
	if lo > hi {
		return axis{0, 1}
	}
	lo, hi = math.Floor(lo*10)/10, math.Ceil(hi*10)/10
	for hi-lo < 0.2 {
		lo, hi = lo-0.1, hi+0.1
	}
	return axis{math.Max(0, lo), math.Min(1, hi)}
}

// at is where v is on the axis, as a CSS percentage.
func (a axis) at(v float64) string {
	if a.hi <= a.lo {
		return "0%"
	}
	return ui.BarWidth((v - a.lo) / (a.hi - a.lo))
}

// ticks are the axis' labelled values, a tenth apart (a fifth on a wide axis).
func (a axis) ticks() []float64 {
	step := 0.1
	if a.hi-a.lo > 0.5 {
		step = 0.2
	}
	var out []float64
	for v := a.lo; v <= a.hi+1e-9; v += step {
		out = append(out, math.Round(v*10)/10)
	}
	return out
}

// verdict says how an entry stands against the leader, in words.
func verdict(e api.LeaderboardEntry) (text, class string) {
	switch {
	case e.DeltaInterval == nil:
		return "leader", "ok"
	case e.Significant && e.DeltaVsLeader < 0:
		return "significantly worse", "bad"
	case e.Significant:
		return "significantly better", "ok" // a tie for first ranked below the leader
	}
	return "not distinguishable", "muted"
}

// renderRanking is the board's table: one row per AI-system with its forest plot.
func (p *Page) renderRanking(b *api.Leaderboard) app.UI {
	ax := plotAxis(b.Entries)
	leader := b.Entries[0].Score
	tokens, latency, cost := false, false, false
	for _, e := range b.Entries {
		tokens = tokens || e.Usage != nil && e.Usage.InputTokens+e.Usage.OutputTokens > 0
		cost = cost || e.Usage != nil && e.Usage.CostUSD != nil
		latency = latency || e.LatencyP50MS != nil
	}
	tickLabels := []app.UI{}
	for _, v := range ax.ticks() {
		tickLabels = append(tickLabels, app.Span().Class("tick").Style("left", ax.at(v)).Text(strconv.FormatFloat(v, 'f', 1, 64)))
	}
	level := ui.Level(b.Entries[0].Interval)
	// The headers are short, for the table to fit 1024 px; each title has the long form.
	th := func(text, title string) app.UI { return app.Th().Class("nowrap").Title(title).Text(text) }
	head := []app.UI{
		app.Th().Text(""), app.Th().Text("#"), app.Th().Text("AI-system"), th("Score", "the benchmark score, with its "+level+" below"),
		app.Th().Class("forest-head").Title("each score (the point) and its " + level + " (the bar); the dashed line is the leader's score").
			Body(app.Div().Class("forest-axis").Body(tickLabels...)),
		th("Δ vs leader", "the score minus the leader's, paired over the examples, with its "+level+": significant when the interval excludes 0"),
		th("Examples", "examples evaluated"),
		th("Valid · inv · err", "valid · invalid output · execution error"),
	}
	if tokens {
		head = append(head, th("Tokens", "tokens in / out, over every example"))
	}
	if cost {
		head = append(head, th("Cost", "what the run cost in US dollars, at the model's prices in the runtime file"))
	}
	if latency {
		head = append(head, th("p50 / p95", "latency per example: the median (p50) and the 95th percentile (p95)"))
	}
	rows := make([]app.UI, 0, len(b.Entries))
	for _, e := range b.Entries {
		rows = append(rows, p.renderEntry(e, ax, leader, columns{tokens, cost, latency}))
	}
	return app.Section().ID("ranking").Class("panel").Style("margin-bottom", "12px").Body(
		app.Div().Class("toolbar").Body(
			app.H2().Text("Ranking"),
			app.Span().Class("muted").Title("each system's latest completed run of every example; the bar is the score's "+level+
				", the dashed line the leader's score").Text(ui.Plural(len(b.Entries), "AI-system")+" ranked · each its latest full run · bars: "+level),
			app.Span().Class("sep"),
			app.Span().Class("muted small").Text("pick two to compare"),
			app.Button().ID("board-compare").Class("primary").Disabled(len(p.picks) != 2).
				Text("Compare ("+strconv.Itoa(len(p.picks))+"/2)").OnClick(p.onCompare),
		),
		app.Div().Class("board-scroll").Body(app.Table().ID("board").Class("data board").Body(
			app.THead().Body(app.Tr().Body(head...)),
			app.TBody().Body(rows...),
		)),
	)
}

// renderEntry is one AI-system's row.
func (p *Page) renderEntry(e api.LeaderboardEntry, ax axis, leader float64, cols columns) app.UI {
	text, class := verdict(e)
	delta := app.Td().Class("delta").Body(app.Span().Class("badge ok verdict").Text(text))
	if e.DeltaInterval != nil {
		delta = app.Td().Class("delta").Body(
			app.Span().Class("mono nowrap delta-value").Text(ui.Signed(e.DeltaVsLeader)),
			app.Div().Class("mono muted small nowrap delta-interval").Title(e.DeltaInterval.Method).Text(ui.SignedInterval(*e.DeltaInterval)),
			app.Div().Class("verdict small nowrap "+class).Text(text),
		)
	}
	cells := []app.UI{
		app.Td().Body(app.Input().Type("checkbox").Class("pick").DataSet("run", e.Run).
			Checked(slices.Contains(p.picks, e.Run)).Title("compare this run").OnChange(p.onPick, app.EventScope(e.Run))),
		app.Td().Class("rank").Text(strconv.Itoa(e.Rank)),
		app.Td().Class("system").Body(
			app.Strong().Body(ui.SystemName(e.System, e.SystemHash)),
			app.Div().Class("small").Body(app.A().Class("mono muted nowrap run-link").Href(ui.ResultsURL(e.Run, "")).Title("run "+e.Run).Text("run "+ui.ShortID(e.Run))),
		),
		app.Td().Class("score-cell").Body(
			app.Span().Class("mono entry-score").DataSet("value", strconv.FormatFloat(e.Score, 'g', -1, 64)).Text(ui.Score(e.Score)),
			app.Div().Class("mono muted small nowrap entry-interval").Title(e.Interval.Method).Text(ui.Interval(e.Interval)),
		),
		app.Td().Class("forest-cell").Body(forest(e, ax, leader)),
		delta,
		app.Td().Class("mono nowrap").Text(ui.Int(e.Examples)),
		app.Td().Class("mono nowrap counts").Body(
			app.Span().Class("ok").Text(ui.Int(e.Valid)), app.Text(" · "),
			app.Span().Class(map[bool]string{true: "bad", false: ""}[e.InvalidOutputs > 0]).Text(ui.Int(e.InvalidOutputs)), app.Text(" · "),
			app.Span().Class(map[bool]string{true: "warn", false: ""}[e.ExecutionErrors > 0]).Text(ui.Int(e.ExecutionErrors)),
		),
	}
	if cols.tokens {
		t := ui.NoValue
		if e.Usage != nil {
			t = ui.Int(e.Usage.InputTokens) + " / " + ui.Int(e.Usage.OutputTokens)
		}
		cells = append(cells, app.Td().Class("mono nowrap").Text(t))
	}
	if cols.cost {
		cells = append(cells, costCell(e.Usage))
	}
	if cols.latency {
		cells = append(cells, app.Td().Class("mono nowrap").Text(millis(e.LatencyP50MS)+" / "+millis(e.LatencyP95MS)))
	}
	return app.Tr().Class("entry").DataSet("rank", e.Rank).DataSet("system", e.System).DataSet("run", e.Run).Body(cells...)
}

// forest draws one row of the forest plot: the interval as a whisker, the score as a
// point, the leader's score as a dashed line.
func forest(e api.LeaderboardEntry, ax axis, leader float64) app.UI {
	lo, hi := math.Max(ax.lo, e.Interval.Low), math.Min(ax.hi, e.Interval.High)
	width := "0%"
	if hi > lo {
		width = ui.BarWidth((hi - lo) / (ax.hi - ax.lo))
	}
	marks := make([]app.UI, 0, 8)
	for _, v := range ax.ticks() {
		marks = append(marks, app.Div().Class("grid-line").Style("left", ax.at(v)))
	}
	marks = append(marks,
		app.Div().Class("leader-line").Style("left", ax.at(leader)),
		app.Div().Class("whisker").Style("left", ax.at(lo)).Style("width", width),
		app.Div().Class("point").Style("left", ax.at(e.Score)),
	)
	return app.Div().Class("forest").Title(e.System + ": " + ui.Score(e.Score) + ", " + ui.Level(e.Interval) + " " + ui.Interval(e.Interval)).Body(marks...)
}

// millis shows a latency in milliseconds, or NoValue.
func millis(v *float64) string {
	if v == nil {
		return ui.NoValue
	}
	if *v >= 1000 {
		return strconv.FormatFloat(*v/1000, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(*v, 'f', 0, 64) + " ms"
}

// renderHeatmap is each AI-system's accuracy per dimension, coloured and printed.
func renderHeatmap(b *api.Leaderboard) app.UI {
	head := []app.UI{app.Th().Text("AI-system")}
	for _, d := range b.Dimensions {
		head = append(head, app.Th().Class("mono dim").Text(ui.Dotted(d)))
	}
	rows := make([]app.UI, 0, len(b.Entries))
	for _, e := range b.Entries {
		cells := []app.UI{app.Th().Body(ui.SystemName(e.System, e.SystemHash))}
		for i := range b.Dimensions {
			var v *float64
			if i < len(e.Dimensions) {
				v = e.Dimensions[i]
			}
			if v == nil {
				cells = append(cells, app.Td().Class("heat none").Title("no valid example").Text(ui.NoValue))
				continue
			}
			cells = append(cells, app.Td().Class("heat").DataSet("value", strconv.FormatFloat(*v, 'g', -1, 64)).
				Style("background", heatColor(*v)).Title(e.System+" · "+ui.Dotted(b.Dimensions[i])+": "+ui.Pct(*v)).Text(ui.Pct(*v)))
		}
		rows = append(rows, app.Tr().DataSet("system", e.System).Body(cells...))
	}
	return app.Section().ID("heatmap").Class("panel").Body(
		app.Div().Class("toolbar").Body(
			app.H2().Text("Accuracy per dimension"),
			app.Span().Class("muted").Text("among each run's valid examples"),
			app.Span().Class("sep"),
			app.Span().Class("heat-legend small muted").Body(app.Text("0%"), app.Span().Class("heat-scale"), app.Text("100%")),
		),
		app.Table().Class("data heatmap").Body(app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)),
	)
}

// heatColor is the heatmap's colour of accuracy v: red through amber to green, light
// enough for the printed value to read.
func heatColor(v float64) string {
	v = math.Max(0, math.Min(1, v))
	return "hsl(" + strconv.FormatFloat(v*125, 'f', 0, 64) + ", 62%, " + strconv.FormatFloat(86-6*v, 'f', 0, 64) + "%)"
}

// columns are the board's optional columns, each shown when some entry has its value.
type columns struct{ tokens, cost, latency bool }

// costCell is an entry's cost, with how many of its examples were priced and how much was
// replayed from the response cache in its title; a dash for a run without a price.
func costCell(u *api.Usage) app.UI {
	if u == nil || u.CostUSD == nil {
		return app.Td().Class("mono nowrap entry-cost").Title("no price for this model in the runtime file").Text(ui.NoValue)
	}
	title := ui.Plural(u.PricedExamples, "example") + " priced"
	if u.CachedCostUSD != nil {
		title += "; " + ui.USD(*u.CachedCostUSD) + " of it replayed from the response cache, not paid again"
	}
	return app.Td().Class("mono nowrap entry-cost").Title(title).Text(ui.USD(*u.CostUSD))
}
