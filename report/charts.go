package report

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/api"
)

// The charts are SVG drawn here, inline in the page: geometry is computed in Go and the
// template writes it, so nothing runs in the browser.

// rect is one bar or cell of a chart, in the chart's own units.
type rect struct {
	X, Y, W, H float64
	Class      string
	Label      string // its text (a count, a value)
	Title      string // what a hover says
	Text       string // its text's class: "light" over a dark fill, else ""
}

// chart is a bar chart: its size, bars and axis labels.
type chart struct {
	W, H   float64
	Bars   []rect
	Labels []rect // under the bars
	Max    int
	Empty  bool
}

// histogram draws Charts.Histogram: ten bins of valid scores and the perfect ones.
func histogram(bins []int) chart {
	c := chart{W: 440, H: 160}
	top := 0
	for _, n := range bins {
		top = max(top, n)
	}
	c.Max, c.Empty = top, top == 0
	const bw, gap, base = 36.0, 4.0, 130.0
	for i, n := range bins {
		x := 10 + float64(i)*(bw+gap)
		h := 0.0
		if top > 0 {
			h = 110 * float64(n) / float64(top)
		}
		label := fmt.Sprintf("%.1f", float64(i)/10)
		title := fmt.Sprintf("%d valid examples scored in [%.1f, %.1f)", n, float64(i)/10, float64(i+1)/10)
		if i == 10 {
			label, title = "1", fmt.Sprintf("%d valid examples scored 1", n)
		}
		c.Bars = append(c.Bars, rect{X: x, Y: base - h, W: bw, H: h, Class: "bar", Label: fmt.Sprint(n), Title: title})
		c.Labels = append(c.Labels, rect{X: x + bw/2, Y: base + 16, Label: label})
	}
	return c
}

// statusBar is the status breakdown as one stacked bar 400 units wide.
func statusBar(s api.Summary) []rect {
	if s.Examples == 0 {
		return nil
	}
	var out []rect
	x := 0.0
	for _, part := range []struct {
		n     int
		class string
		name  string
	}{{s.Valid, "valid", "valid"}, {s.InvalidOutputs, "invalid", "invalid_output"}, {s.ExecutionErrors, "error", "execution_error"}} {
		w := 400 * float64(part.n) / float64(s.Examples)
		if part.n > 0 {
			out = append(out, rect{X: x, Y: 0, W: w, H: 24, Class: part.class, Title: fmt.Sprintf("%s: %d of %d", part.name, part.n, s.Examples)})
		}
		x += w
	}
	return out
}

// confusionView is one enum dimension's matrix: cells shaded by their share of the row,
// their counts in white over the darker shades. Its rows and columns are the matrix's
// labels (at most api.MaxConfusionLabels) and, for a larger enum, one for the others.
// The other × other cell is neutral, not shaded: it counts the folded members' right
// answers with their wrong ones, and a dark cell there read as one large confusion (the
// results page draws it so too).
//
// A cell's title names its members as the heads do (short): a member may be 1 MiB, and
// whole in each title it made one run's report 196 MB. The members the heads cut are
// named once, below the matrix (Legend), cut at MaxLabel.
type confusionView struct {
	Path    string
	Cells   []rect
	Heads   []rect // the predicted values, over the columns
	Rows    []rect // the expected values, left of the rows
	W, H    float64
	Others  int      // how many members are counted as other (0: none)
	TooMany int      // the number of labels when there are more than api.MaxConfusionLabels (nothing drawn)
	Legend  []member // the members the heads cut, in order
}

// member is a member the heads name cut: as they name it and as the legend does.
type member struct{ Short, Name string }

func confusionOf(c api.Confusion) confusionView {
	v := confusionView{Path: key(c.Path)}
	if len(c.Labels) > api.MaxConfusionLabels { // not folded (api.FoldConfusion)
		v.TooMany = len(c.Labels)
		return v
	}
	names := c.Labels
	if c.Other() {
		v.Others = c.Members - len(c.Labels)
		names = append(slices.Clip(names), fmt.Sprintf("(%d others)", v.Others))
	}
	const cell, left, top = 34.0, 120.0, 90.0
	n := float64(len(names))
	v.W, v.H = left+n*cell+10, top+n*cell+10
	for i, val := range names {
		if i < len(c.Labels) && short(val) != val {
			v.Legend = append(v.Legend, member{Short: short(val), Name: label(val)})
		}
		h := rect{X: left + float64(i)*cell + cell/2, Y: top - 6, Label: short(val)}
		v.W = max(v.W, h.X+turned(h.Label)+4) // the heads run up and right, past the last column
		v.Heads = append(v.Heads, h)
		v.Rows = append(v.Rows, rect{X: left - 6, Y: top + float64(i)*cell + cell/2 + 4, Label: short(val)})
	}
	totals := make([]int, len(names))
	for _, k := range c.Cells {
		if k.Expected < len(names) {
			totals[k.Expected] += k.Count
		}
	}
	title := func(i int) string {
		if i == len(c.Labels) {
			return fmt.Sprintf("one of %d other members", v.Others)
		}
		return short(names[i])
	}
	for i := range names {
		for j := range names {
			k := c.Count(i, j)
			class, text := "cell", ""
			if i == len(c.Labels) && j == i && k > 0 { // other × other: right and wrong answers together
				v.Cells = append(v.Cells, rect{X: left + float64(j)*cell, Y: top + float64(i)*cell, W: cell - 2, H: cell - 2, Class: "cell mixed",
					Label: fmt.Sprint(k), Title: fmt.Sprintf("expected one of %d other members, predicted one of them: %d, right and wrong answers mixed (each predicted as itself or as another of them)", v.Others, k)})
				continue
			}
			if k > 0 {
				shade := min(int(float64(k)/float64(totals[i])*5), 4)
				class = fmt.Sprintf("cell s%d", shade)
				if i == j && i < len(c.Labels) {
					class += " diag"
				}
				if shade >= 3 { // dark text on the two darkest blues is hard to read
					text = "light"
				}
			}
			v.Cells = append(v.Cells, rect{X: left + float64(j)*cell, Y: top + float64(i)*cell, W: cell - 2, H: cell - 2, Class: class, Text: text,
				Label: fmt.Sprint(k), Title: fmt.Sprintf("expected %s, predicted %s: %d", title(i), title(j), k)})
		}
	}
	return v
}

// turned is about how far right of its start a head's label reaches, turned 45° (11px
// text, at most some 7px a character in the usual sans fonts).
func turned(label string) float64 { return float64(utf8.RuneCountInString(label)) * 7 * math.Sqrt2 / 2 }

// short is an enum value as a matrix's heads and titles show it (the legend has it to
// MaxLabel characters).
func short(s string) string { return cutChars(s, 14) }
