package editor

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/ui"
)

// The editor's panels are components of their own so that a keystroke in the YAML renders
// only what it changed: go-app renders a child component again only when its fields change.

// irPanel is the IR preview.
type irPanel struct {
	app.Compo
	Valid    bool
	Hash, IR string
}

func (e *Page) renderSource() app.UI {
	state, cls := "valid", "badge ok"
	if !e.valid {
		state, cls = ui.Plural(len(e.diags), "problem"), "badge bad"
	}
	return app.Section().Class("panel").Body(
		app.Div().Class("row").Body(
			app.H2().Text("YAML"),
			app.Span().ID("compile-state").Class(cls).Text(state),
			app.Span().Class("muted").Body(
				app.Text("compiled in "), app.Span().ID("compile-ms").Textf("%.2f", e.compileMS), app.Text(" ms"),
			),
		),
		app.Style().Text(gutterCSS),
		app.Div().Class("yaml-edit").Body(
			&gutter{Owner: e, Lines: lineCount(e.yaml), Marks: marks(e.diags)},
			app.Textarea().ID("yaml").Class("yaml").Spellcheck(false).
				Attr("autocomplete", "off").Attr("autocapitalize", "off").Attr("wrap", "off").
				Text(e.yaml).OnInput(e.onYAML).OnScroll(e.onYAMLScroll),
		),
		app.Ul().ID("diagnostics").Class("diags").Body(
			app.Range(e.diags).Slice(func(i int) app.UI {
				d := e.diags[i]
				return app.Li().Class("diag").
					DataSet("code", string(d.Code)).DataSet("line", d.Line).DataSet("column", d.Column).
					Title("click to go there").
					OnClick(e.onDiagnostic).
					Body(
						app.Span().Class("pos").Textf("%d:%d", d.Line, d.Column),
						app.Span().Class("code").Text(string(d.Code)),
						app.Text(d.Message),
						app.If(d.Suggestion != "", func() app.UI {
							return app.Span().Class("hint").Text("did you mean " + d.Suggestion + "?")
						}),
						app.If(d.Suggestion != "" && d.Line > 0 && d.Column > 0, func() app.UI {
							return app.Button().Class("small apply").DataSet("index", i).
								Title("replace the word at " + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column) + " with " + d.Suggestion).
								Text("use " + d.Suggestion).OnClick(e.onApply)
						}),
					)
			}),
		),
	)
}

func (p *irPanel) Render() app.UI {
	return app.Section().Class("panel").Body(
		app.H2().Text("IR preview"),
		app.If(p.Valid, func() app.UI {
			return app.Div().Body(
				app.Div().Class("hash").Title(ui.IRHash.Name+": "+ui.IRHash.Means+"; the benchmark hash leaves the AI-system out").Body(app.Text("IR hash "), app.Span().ID("ir-hash").Text(p.Hash)),
				app.Pre().ID("ir").Class("ir").Text(p.IR),
			)
		}).Else(func() app.UI {
			return app.P().ID("ir-none").Class("muted").Text("The IR appears when the benchmark is valid; fix the problems listed under the YAML.")
		}),
	)
}

// onDiagnostic moves the cursor to the clicked diagnostic. It reads the position from the
// element, which every render updates (go-app keeps a handler's first closure).
func (e *Page) onDiagnostic(ctx app.Context, ev app.Event) {
	ds := ctx.JSSrc().Get("dataset")
	line, _ := strconv.Atoi(ds.Get("line").String())
	col, _ := strconv.Atoi(ds.Get("column").String())
	e.goTo(line, col)
}

// goTo puts the YAML's cursor at a line and column (1-based, in characters).
func (e *Page) goTo(line, col int) {
	el := app.Window().GetElementByID("yaml")
	if !el.Truthy() {
		return
	}
	off := offsetUTF16(e.yaml, line, col)
	el.Call("focus")
	el.Call("setSelectionRange", off, off)
	lineHeight := el.Get("scrollHeight").Float() / float64(max(1, strings.Count(e.yaml, "\n")+1))
	el.Set("scrollTop", max(0, float64(line-4)*lineHeight))
}

// offsetUTF16 is the position of line:col in s as a JavaScript string index.
func offsetUTF16(s string, line, col int) int {
	off, l, c := 0, 1, 1
	for _, r := range s {
		if l > line || (l == line && c >= col) {
			break
		}
		if r == '\n' {
			if l == line {
				break
			}
			l, c = l+1, 1
		} else {
			c++
		}
		if r >= 0x10000 {
			off += 2
		} else {
			off++
		}
	}
	return off
}
