package results

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// The charts are SVG the app draws from GET /api/runs/{id}/charts (counts the store
// makes, never the results themselves): no script or stylesheet from elsewhere. Each mark
// that stands for examples filters the table to them when clicked.

const svgNS = "http://www.w3.org/2000/svg"

// svg is an SVG element: go-app makes an element in the namespace it is given, not in
// its parent's.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// label is SVG text at x, y.
func label(x, y float64, anchor, class, s string) app.UI {
	return svg("text").Attr("x", num(x)).Attr("y", num(y)).Attr("text-anchor", anchor).Class(class).Text(s)
}

// renderCharts is the charts panel: status breakdown, score histogram, accuracy per
// dimension and a confusion matrix per enum dimension.
func (p *Page) renderCharts() app.UI {
	c := &p.charts
	var body app.UI
	switch {
	case c.Err != nil:
		body = app.P().ID("charts-error").Class("muted").Text("No charts: " + ui.ErrText(c.Err))
	case !c.OK:
		body = app.P().Class("muted").Text("Loading the charts…")
	default:
		v := &c.Value
		hist, dims := p.histogram(v.Histogram), p.dimensionChart(v.Dimensions)
		if v.Summary.Valid == 0 { // a failed run: all-zero bars would read as scores of 0
			hist, dims = noValid("histogram"), noValid("dimensions")
		}
		body = app.Div().Class("charts").Body(
			p.chartBox("chart-status", "Status", p.statusChart(v.Summary)),
			p.chartBox("chart-histogram", "Score of valid examples", hist),
			p.chartBox("chart-dimensions", "Accuracy per dimension (valid examples)", dims),
		)
	}
	var matrices []app.UI
	if c.OK && c.Value.Summary.Valid == 0 && len(c.Value.Confusion) > 0 {
		matrices = append(matrices, app.P().ID("no-confusion").Class("muted").Text("No confusion matrix: no valid examples."))
	} else if c.OK {
		for _, m := range c.Value.Confusion {
			matrices = append(matrices, p.confusion(m))
		}
	}
	return app.Section().ID("charts").Class("panel").Style("margin-bottom", "12px").Body(
		app.H2().Text("Charts"), body, app.Div().ID("confusions").Class("charts").Body(matrices...))
}

// noValid says a chart of valid examples has none to draw.
func noValid(what string) app.UI {
	return app.P().Class("muted no-valid").DataSet("chart", what).Text("No valid examples.")
}

func (p *Page) chartBox(id, title string, chart app.UI) app.UI {
	return app.Div().ID(id).Class("chart").Body(app.H3().Text(title), chart)
}

// statusChart is one bar split by status; a part filters the table to its status.
func (p *Page) statusChart(s api.Summary) app.UI {
	const w, h = 360.0, 28.0
	parts := []struct {
		status, class string
		n             int
	}{{api.Valid, "valid", s.Valid}, {api.InvalidOutput, "invalid", s.InvalidOutputs}, {api.ExecutionError, "exec", s.ExecutionErrors}}
	total := s.Valid + s.InvalidOutputs + s.ExecutionErrors
	var marks, legend []app.UI
	x := 0.0
	for i, part := range parts {
		ly := h + 18 + float64(i)*16
		legend = append(legend, svg("rect").Attr("x", "0").Attr("y", num(ly-9)).Attr("width", "10").Attr("height", "10").Class("seg "+part.class),
			label(16, ly, "start", "legend", part.status+": "+ui.Int(part.n)))
		if total == 0 || part.n == 0 {
			continue
		}
		bw := w * float64(part.n) / float64(total)
		f := api.Filter{Status: part.status}
		marks = append(marks, svg("rect").Class("seg clickable "+part.class).DataSet("status", part.status).DataSet("count", part.n).
			Attr("x", num(x)).Attr("y", "0").Attr("width", num(bw)).Attr("height", num(h)).
			OnClick(p.filterTo(f), app.EventScope(part.status)).
			Body(svg("title").Text(part.status+": "+ui.Int(part.n)+" of "+ui.Int(total))))
		x += bw
	}
	if total == 0 {
		marks = append(marks, svg("rect").Class("seg empty").Attr("width", num(w)).Attr("height", num(h)))
	}
	return svg("svg").Attr("viewBox", "0 0 "+num(w)+" "+num(h+64)).Attr("width", num(w)).Attr("height", num(h+64)).
		Attr("role", "img").Body(append(marks, legend...)...)
}

// histogram is the score of valid examples in ten bins and the perfect ones; a bin below
// 1 shows the imperfect examples, lowest score first.
func (p *Page) histogram(bins []int) app.UI {
	if len(bins) != 11 {
		return app.P().Class("muted").Text("No histogram.")
	}
	const w, h, top, bottom = 360.0, 150.0, 16.0, 18.0
	max := 1
	for _, n := range bins {
		if n > max {
			max = n
		}
	}
	bw := w / 11
	var marks []app.UI
	for i, n := range bins {
		bh := (h - top - bottom) * float64(n) / float64(max)
		x, y := float64(i)*bw, h-bottom-bh
		name := "1 (perfect)"
		class := "bin perfect"
		if i < 10 {
			name = "[" + strconv.FormatFloat(float64(i)/10, 'f', 1, 64) + ", " + strconv.FormatFloat(float64(i+1)/10, 'f', 1, 64) + ")"
			class = "bin"
		}
		bf := binFilter(i)
		if bf.ScoreMin == p.filter.ScoreMin && bf.ScoreMax == p.filter.ScoreMax && bf.Imperfect == p.filter.Imperfect {
			class += " selected" // its examples are the ones the table shows
		}
		bar := svg("rect").Class(class).DataSet("bin", i).DataSet("count", n).
			Attr("x", num(x+2)).Attr("y", num(y)).Attr("width", num(bw-4)).Attr("height", num(bh)).
			Body(svg("title").Text(ui.Plural(n, "valid example") + " scored " + name + "; click for them"))
		if n > 0 {
			bar = bar.Class("clickable").OnClick(p.filterTo(bf), app.EventScope(strconv.Itoa(i)))
		}
		marks = append(marks, bar)
		if n > 0 {
			marks = append(marks, label(x+bw/2, y-3, "middle", "count", strconv.Itoa(n)))
		}
		if i%2 == 0 || i == 10 {
			marks = append(marks, label(x+bw/2, h-4, "middle", "axis", map[bool]string{true: "1", false: strconv.FormatFloat(float64(i)/10, 'f', 1, 64)}[i == 10]))
		}
	}
	marks = append(marks, svg("line").Class("baseline").Attr("x1", "0").Attr("x2", num(w)).Attr("y1", num(h-bottom)).Attr("y2", num(h-bottom)))
	return svg("svg").Attr("viewBox", "0 0 "+num(w)+" "+num(h)).Attr("width", num(w)).Attr("height", num(h)).Attr("role", "img").Body(marks...)
}

// binFilter selects the examples of the histogram's bin i: [i/10, (i+1)/10), the last
// of which is [0.9, 1) (a score_max of 1 takes 1 too, so below 1: imperfect), and bin
// 10 exactly 1 (1 and 1).
func binFilter(i int) api.Filter {
	tenth := func(n int) string { return strconv.FormatFloat(float64(n)/10, 'f', -1, 64) }
	switch {
	case i >= 10:
		return api.Filter{ScoreMin: "1", ScoreMax: "1"}
	case i == 9:
		return api.Filter{ScoreMin: tenth(9), ScoreMax: "1", Imperfect: true}
	}
	return api.Filter{ScoreMin: tenth(i), ScoreMax: tenth(i + 1)}
}

// dimensionChart is each dimension's accuracy as a bar; a bar shows the examples whose
// field was wrong.
func (p *Page) dimensionChart(dims []api.Dimension) app.UI {
	if len(dims) == 0 {
		return app.P().Class("muted").Text("No dimensions.")
	}
	const w, row, labelW, valueW = 380.0, 22.0, 130.0, 56.0
	h := row * float64(len(dims))
	var marks []app.UI
	for i, d := range dims {
		y := float64(i) * row
		k := api.DimensionKey(d.Path)
		name, _ := ui.Clip(k, 18)
		value, acc := ui.NoValue, 0.0
		if d.Accuracy != nil {
			acc = *d.Accuracy
			value = ui.Pct(acc)
		}
		track := w - labelW - valueW
		marks = append(marks,
			label(labelW-6, y+15, "end", "axis mono", name),
			svg("rect").Class("track").Attr("x", num(labelW)).Attr("y", num(y+5)).Attr("width", num(track)).Attr("height", "12"),
			svg("rect").Class("fill").Attr("x", num(labelW)).Attr("y", num(y+5)).Attr("width", num(track*acc)).Attr("height", "12"),
			label(w-4, y+15, "end", "count", value),
		)
		hit := svg("rect").Class("hit clickable").DataSet("path", k).Attr("x", "0").Attr("y", num(y)).Attr("width", num(w)).Attr("height", num(row)).
			Body(svg("title").Text(k + " ×" + strconv.FormatFloat(d.Weight, 'f', -1, 64) + ": " + ui.Int(d.Correct) + " of " + ui.Int(d.Valid) + " valid examples right; click for the wrong ones"))
		marks = append(marks, hit.OnClick(p.filterTo(api.Filter{Wrong: k}), app.EventScope(k)))
	}
	return svg("svg").Attr("viewBox", "0 0 "+num(w)+" "+num(h)).Attr("width", num(w)).Attr("height", num(h)).Attr("role", "img").Body(marks...)
}

// confusion is an enum dimension's matrix, expected down and predicted across; a cell's
// shade grows with its count, and a click shows its examples. The server folds a large
// enum to its api.MaxConfusionLabels most frequent members and one row and column for the
// others (api.FoldConfusion), so at most 21×21 cells are drawn; an "other" cell names no
// one member, so it filters nothing. The shades are scaled to the cells between two
// labels: the others' cells are sums over many members (a 60-member enum's other × other
// counted 62, 45 of them right, where the diagonal's largest was 22 and looked pale
// beside it). The other × other cell mixes right and wrong answers, so it is neutral, not
// an error's red; a label's cell with the others is an error and stays one. A cell's title
// names its members cut at maxTitleLabel characters, and a member the server cut
// (api.MaxLabelBytes, m.Clipped) names no member whole, so its cells filter nothing:
// each of the 441 cells named two whole members, and 20 members of 49,000 "&" made one
// matrix 235 MB of HTML.
func (p *Page) confusion(m api.Confusion) app.UI {
	k := api.DimensionKey(m.Path)
	heading, _ := ui.Clip("Confusion: "+k, maxTitleLabel*2)
	if len(m.Labels) > api.MaxConfusionLabels { // not folded: a page draws no more
		return app.Div().Class("chart confusion").DataSet("path", k).Body(app.H3().Text(heading),
			app.P().Class("muted").Text(ui.Int(len(m.Labels))+" labels: too many to draw."))
	}
	labels := m.Labels
	names := slices.Clip(labels)
	if m.Other() {
		names = append(names, "("+ui.Int(m.Members-len(m.Labels))+" others)")
	}
	n := len(names)
	const cell, labelW = 40.0, 120.0
	longest := 0
	for _, v := range names {
		longest = min(14, max(longest, len([]rune(v))))
	}
	headH := 18 + 5.5*float64(longest) // the column labels, turned 50°
	other := func(i int) bool { return i >= len(labels) }
	cut := func(i int) bool { return !other(i) && m.Cut(i) }
	top := 1 // the largest count between two labels: the others' cells set no scale
	for _, c := range m.Cells {
		if !other(c.Expected) && !other(c.Predicted) {
			top = max(top, c.Count)
		}
	}
	says := func(i int) string { // a row's or column's value, as a cell's title says it
		if other(i) {
			return "one of " + ui.Int(m.Members-len(m.Labels)) + " other members"
		}
		s, _ := ui.Clip(names[i], maxTitleLabel)
		return s
	}
	var marks []app.UI
	for j, v := range names {
		x := labelW + float64(j)*cell + cell/2
		s, _ := ui.Clip(v, 14)
		marks = append(marks, svg("text").Class("axis").Attr("transform", "translate("+num(x+4)+" "+num(headH-6)+") rotate(-50)").Text(s))
	}
	for i, ev := range names {
		y := headH + float64(i)*cell
		s, _ := ui.Clip(ev, 16)
		marks = append(marks, label(labelW-6, y+cell/2+4, "end", "axis", s))
		for j, pv := range names {
			count := m.Count(i, j)
			x := labelW + float64(j)*cell
			class := "cell"
			if i == j && !other(i) {
				class += " diagonal"
			}
			if !other(i) && !other(j) && p.filter.Field == k && p.filter.Expected == ev && p.filter.Predicted == pv {
				class += " selected" // the cell whose examples the table shows
			}
			shade := 0.08 + 0.92*min(float64(count)/float64(top), 1)
			mixed := other(i) && other(j) && count > 0
			switch {
			case count == 0:
				class, shade = class+" zero", 1
			case mixed: // neither an error nor a scale: right and wrong answers together
				class, shade = class+" mixed", 1
			}
			rect := svg("rect").Attr("x", num(x+1)).Attr("y", num(y+1)).Attr("width", num(cell-2)).Attr("height", num(cell-2)).Attr("fill-opacity", strconv.FormatFloat(shade, 'f', 2, 64))
			textClass := "cell-count"
			if shade > 0.55 && count > 0 && !mixed {
				textClass += " light"
			}
			title := "expected " + says(i) + ", predicted " + says(j) + ": " + ui.Plural(count, "example")
			if cut(i) || cut(j) {
				title += " (a member over " + ui.Int(api.MaxLabelBytes) + " bytes, named cut: not filtered here)"
			}
			if mixed {
				title = "expected one of the " + ui.Int(m.Members-len(m.Labels)) + " other members, predicted one of them: " + ui.Plural(count, "example") +
					", right and wrong answers mixed (each predicted as itself or as another of them); not an error count"
			}
			g := svg("g").Class(class).DataSet("count", count).Body(
				rect,
				label(x+cell/2, y+cell/2+4, "middle", textClass, strconv.Itoa(count)),
				svg("title").Text(title),
			)
			switch {
			case other(i) || other(j):
				g = g.Class("other").DataSet("other", "1")
			case cut(i) || cut(j): // names no member whole: a filter by it finds nothing
				g = g.DataSet("cut", "1")
			case count > 0:
				g = g.DataSet("expected", ev).DataSet("predicted", pv).
					Class("clickable").OnClick(p.filterTo(api.Filter{Field: k, Expected: ev, Predicted: pv}), app.EventScope(ev+"\x00"+pv))
			default:
				g = g.DataSet("expected", ev).DataSet("predicted", pv)
			}
			marks = append(marks, g)
		}
	}
	w, h := labelW+float64(n)*cell+8, headH+float64(n)*cell+4
	note := "expected ↓, predicted →; click a cell for its examples"
	if m.Other() {
		note = "the " + ui.Int(len(labels)) + " most frequent of " + ui.Int(m.Members) + " members; " + note
	}
	return app.Div().Class("chart confusion").DataSet("path", k).Body(
		app.H3().Text(heading),
		app.Div().Class("muted small").Text(note),
		svg("svg").Attr("viewBox", "0 0 "+num(w)+" "+num(h)).Attr("width", num(w)).Attr("height", num(h)).Attr("role", "img").Body(marks...),
	)
}

// maxTitleLabel is how many characters of a member a confusion cell's title names.
const maxTitleLabel = 40

// filterTo is a click that shows the results f selects.
func (p *Page) filterTo(f api.Filter) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.setFilter(ctx, f) }
}
