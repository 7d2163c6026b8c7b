package results

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/web/ui"
)

// renderExample is one example in full: its input field by field, each as its type
// shows (text, image, audio, document), the expected output beside the prediction in
// declaration order with each dimension's mark and weight, its score and contribution,
// its error explained, its usage and the request a model was sent.
func (p *Page) renderExample() app.UI {
	d := &p.detail
	back := app.A().ID("example-back").Class("button").Href(pageURL(p.id, p.filter, p.after, -1)).Text("← List (Esc)")
	nav := func(id, label string, to int) app.UI {
		if to < 0 {
			return app.Button().ID(id).Disabled(true).Text(label)
		}
		return app.A().ID(id).Class("button").Href(pageURL(p.id, p.filter, p.after, to)).Text(label)
	}
	prev, next := -1, -1
	if d.OK {
		prev, next = d.Value.Prev, d.Value.Next
	}
	under := "all examples"
	if !p.filter.IsZero() {
		under = "the examples the filter selects"
	}
	bar := app.Div().Class("toolbar").Body(
		back,
		app.H2().Body(app.Text("Example "), app.Span().ID("example-index").Text(strconv.Itoa(p.example))),
		nav("example-prev", "↑ Previous (k)", prev),
		nav("example-next", "Next (j) ↓", next),
		app.Span().Class("muted small").Text("moving through "+under),
		app.If(d.Busy, func() app.UI { return app.Span().Class("muted").Text("loading…") }),
	)
	var body app.UI
	switch {
	case d.Err != nil:
		body = app.P().ID("example-error").Class("notice error").Text(ui.ErrText(d.Err))
	case !d.OK:
		body = app.P().Class("muted").Text("Loading the example…")
	default:
		body = p.renderDetail(&d.Value)
	}
	ready := d.Answered() && !d.Busy && (!d.OK || d.Value.Index == p.example)
	return app.Section().ID("example-view").Class("panel").DataSet("index", p.example).DataSet("ready", ui.ReadyFlag(ready)).Body(bar, body)
}

// renderDetail is the example's fields, outcome and cost.
func (p *Page) renderDetail(d *api.ExampleDetail) app.UI {
	var in, out *ir.Field
	if p.bench != nil {
		in, out = &p.bench.Program.Input, &p.bench.Program.Output
	}
	input := decode(d.Input)
	expected, predicted := decode(d.Expected), decode(d.Prediction)
	return app.Div().Class("example").Body(
		p.renderOutcome(d),
		app.Div().Class("example-cols").Body(
			app.Div().ID("example-input").Class("example-part").Body(
				app.H3().Text("Input"),
				p.renderInput(d, in, input),
			),
			app.Div().ID("example-output").Class("example-part").Body(
				app.H3().Text("Expected and predicted"),
				p.renderComparison(d, out, expected, predicted),
			),
		),
		renderUsage(d),
		app.If(d.Request != "", func() app.UI {
			return app.Details().ID("example-request").Body(
				app.Summary().Text("The request sent to the model"),
				app.Pre().Class("request").Text(d.Request),
			)
		}),
		app.If(d.Clipped, func() app.UI {
			return app.P().Class("muted small").Text("A value is longer than the page shows (it ends with a marker); the export has it whole.")
		}),
	)
}

// renderOutcome is the example's status, score and contribution, and its error explained.
func (p *Page) renderOutcome(d *api.ExampleDetail) app.UI {
	items := []app.UI{
		app.Span().ID("example-status").Class("badge " + d.Status).Text(d.Status),
		app.Span().Body(app.Text("score "), app.B().ID("example-score").Text(ui.ScorePtr(d.Score))),
		app.Span().Class("muted").Title("What the example adds to the benchmark score's mean: its score, or 0 when it has none").
			Body(app.Text("contribution "), app.Span().ID("example-contribution").Text(ui.Score(d.Contribution))),
	}
	var e app.UI = app.Div()
	if d.Error != nil {
		where := ""
		if len(d.Error.Path) > 0 {
			where = " at " + ui.Dotted(d.Error.Path)
		}
		e = app.Div().ID("example-error-detail").Class("notice error").Body(
			app.Div().Body(app.Code().ID("example-error-code").Text(d.Error.Code), app.Text(where+": "), app.Span().Class("pre-wrap").Text(d.Error.Message)),
			app.Div().ID("example-error-help").Class("small").Text(codeHelp(d.Error.Code, d.Status)),
		)
	}
	return app.Div().Body(app.P().Class("row").Body(items...), e)
}

// renderInput shows each input field as its type.
func (p *Page) renderInput(d *api.ExampleDetail, schema *ir.Field, input any) app.UI {
	if input == nil {
		return app.P().ID("example-no-input").Class("muted").Text("The input is not available: the server could not read the run's dataset row.")
	}
	leaves := schemaLeaves(schema, input)
	if len(leaves) == 0 {
		return app.Div().Class("value mono").Text(text(input))
	}
	rows := make([]app.UI, 0, len(leaves))
	for _, l := range leaves {
		v, ok := at(input, l.path)
		rows = append(rows, app.Div().Class("input-field").DataSet("path", api.DimensionKey(l.path)).Body(
			app.Div().Class("field-name").Body(app.Span().Class("mono").Text(dotted(l.path)), app.Span().Class("muted small").Text(" "+l.typ)),
			p.valueCell(d, l.typ, v, ok),
		))
	}
	return app.Div().Body(rows...)
}

// renderComparison is the expected output and the prediction side by side, one row a
// leaf in declaration order, with the dimension's mark and weight.
func (p *Page) renderComparison(d *api.ExampleDetail, schema *ir.Field, expected, predicted any) app.UI {
	leaves := schemaLeaves(schema, expected, predicted)
	head := app.THead().Body(app.Tr().Body(
		app.Th().Text("Field"), app.Th().Text("Expected"), app.Th().Text("Prediction"), app.Th().Text(""), app.Th().Text("Weight"),
	))
	rows := make([]app.UI, 0, len(leaves))
	for _, l := range leaves {
		ev, eok := at(expected, l.path)
		pv, pok := at(predicted, l.path)
		if expected == nil {
			eok = false
		}
		if predicted == nil {
			pok = false
		}
		mark, class, title := "", "none", "not scored"
		weight := ""
		if fs, ok := fieldScore(d.FieldScores, l.path); ok {
			mark, class, title = "✗", "bad", "wrong"
			if fs.Score == 1 {
				mark, class, title = "✓", "ok", "right"
			}
			weight = strconv.FormatFloat(fs.Weight, 'f', -1, 64)
		} else if w, ok := weightOf(p.bench, l.path); ok {
			weight = strconv.FormatFloat(w, 'f', -1, 64)
		}
		if l.typ == "" {
			title = "not in the output schema"
		}
		rows = append(rows, app.Tr().Class("field-row field-"+class).DataSet("path", api.DimensionKey(l.path)).Body(
			app.Th().Body(app.Span().Class("mono").Text(dotted(l.path)), app.Div().Class("muted small").Text(l.typ)),
			app.Td().Class("expected").Body(p.valueCell(d, l.typ, ev, eok)),
			app.Td().Class("prediction").Body(p.predictionCell(d, l.typ, class == "bad", ev, eok, pv, pok)),
			app.Td().Class("mark "+class).Title(title).Text(mark),
			app.Td().Class("weight").Text(weight),
		))
	}
	if len(rows) == 0 {
		return app.P().Class("muted").Text("No output to compare: the example has no expected output or prediction the page can read.")
	}
	return app.Table().ID("example-fields").Class("data compare-fields").Body(head, app.TBody().Body(rows...))
}

// predictionCell is a field's prediction; a wrong text marks where it first differs from
// the expected text (diffSpan), which a long value hides.
func (p *Page) predictionCell(d *api.ExampleDetail, typ string, wrong bool, ev any, eok bool, pv any, pok bool) app.UI {
	es, eText := ev.(string)
	ps, pText := pv.(string)
	if !wrong || !eok || !pok || !eText || !pText || ps == "" || ir.IsArtifact(typ) {
		return p.valueCell(d, typ, pv, pok)
	}
	before, differ, after := diffSpan(es, ps)
	return app.Div().Class("value text").Body(
		app.Text(before),
		app.If(differ != "", func() app.UI {
			return app.Mark().Class("diff").Title("differs from the expected text here").Text(differ)
		}),
		app.Text(after),
	)
}

// renderUsage is what the example's model call cost, when the run recorded it.
func renderUsage(d *api.ExampleDetail) app.UI {
	if d.Usage == nil {
		return app.Div()
	}
	u := d.Usage
	return app.P().ID("example-usage").Class("row muted").Body(
		app.Span().Text("tokens in "+ui.Int(u.InputTokens)),
		app.Span().Text("tokens out "+ui.Int(u.OutputTokens)),
		app.Span().Text("latency "+strconv.FormatFloat(u.LatencyMS, 'f', 0, 64)+" ms"),
		app.If(u.CostUSD != nil, func() app.UI {
			return app.Span().ID("example-cost").Title("at the model's prices in the runtime file").Text("cost " + ui.USD(*u.CostUSD))
		}),
		// A replay costs what the call cost when it was made: the mark says it was not paid again.
		app.If(u.Cached != nil && *u.Cached, func() app.UI {
			return app.Span().ID("example-cached").Class("badge").Title("replayed from the response cache: not sent, not paid again").Text("cached")
		}),
	)
}
