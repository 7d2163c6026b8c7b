package web

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/web/form"
)

// draftKey is where the editor keeps the text being edited, so that a reload, a crash or
// a lost connection loses nothing.
const draftKey = "benchy-draft"

// Editor is the main page: the form, the YAML, live diagnostics and the IR preview. It
// compiles in the browser, so everything but open, save and run works without the server.
type Editor struct {
	app.Compo

	yaml   string
	doc    *form.Doc // what the form shows: the last YAML that parsed, or the form's own edits
	valid  bool
	parses bool // the YAML parses: the form can write it back without losing anything

	diags     diag.List
	ir        string // pretty canonical IR of the last valid compile
	hash      string
	compileMS float64

	path       string          // the workspace benchmark being edited, "" for a draft
	saved      string          // its text as last opened or saved
	benchmarks []benchmarkInfo // the workspace's, for "open"
	template   string
	note       string // the outcome of the last open or save
	noteBad    bool

	rev       int  // counts changes of the form's document: the form re-renders only then
	edits     int  // counts YAML edits, so that only the last one of a burst compiles
	wholeForm bool // show every field of a very large program
	ready     bool // the page has been marked ready (data-benchy-ready, for tests and tools)
}

// benchmarkInfo is one entry of GET /api/benchmarks.
type benchmarkInfo struct {
	Path  string   `json:"path"`
	Valid bool     `json:"valid"`
	Task  string   `json:"task"`
	Score *float64 `json:"last_score"`
}

// draft is what the browser keeps of the editor between visits.
type draft struct {
	Path  string `json:"path"`  // the workspace file it belongs to, if any
	YAML  string `json:"yaml"`  // the text as last edited
	Saved string `json:"saved"` // the file's text as last opened or saved
}

func (e *Editor) OnMount(ctx app.Context) {
	e.template = "extract"
	var d draft
	ctx.LocalStorage().Get(draftKey, &d)
	p := app.Window().URL().Query().Get("path")
	switch {
	case p != "" && d.Path == p && d.YAML != d.Saved:
		// Unsaved edits of this very file: keep them rather than the server's copy.
		e.path, e.saved = p, d.Saved
		e.setYAML(ctx, d.YAML, false)
		e.note = "your unsaved changes to " + p + " are back; open it again to discard them"
	case p != "":
		e.path = p
		e.open(ctx, p, d)
	case d.YAML != "":
		e.path, e.saved = d.Path, d.Saved
		e.setYAML(ctx, d.YAML, false)
	default:
		e.setYAML(ctx, paperExample, false)
	}
	e.loadList(ctx)
}

// unsaved reports whether the text differs from the workspace file it was opened from.
func (e *Editor) unsaved() bool { return e.path != "" && e.yaml != e.saved }

// setYAML replaces the text, compiles it and fills the form from it when it parses.
func (e *Editor) setYAML(ctx app.Context, src string, fromForm bool) {
	e.yaml = src
	e.compile()
	d, parses := form.FromYAML(src)
	e.parses = parses
	switch {
	case fromForm:
		e.rev++
	case parses && !reflect.DeepEqual(d, e.doc):
		e.doc, e.rev = d, e.rev+1
		ctx.Defer(clearEmptiedInputs)
	case e.doc == nil:
		e.doc, e.rev = form.New("extract"), e.rev+1
	}
	ctx.LocalStorage().Set(draftKey, draft{Path: e.path, YAML: src, Saved: e.saved})
	if !e.ready {
		e.ready = true
		ctx.Defer(func(app.Context) { // after this state is on the page: then it is usable
			app.Window().Get("document").Get("body").Call("setAttribute", "data-benchy-ready", "1")
			app.Window().Get("performance").Call("mark", "benchy-ready")
		})
	}
}

// compile runs the compiler on the current text, as `benchy compile` does.
func (e *Editor) compile() {
	start := time.Now()
	canonical, hash, ds := compiler.CompileCanonical([]byte(e.yaml))
	e.compileMS = float64(time.Since(start).Microseconds()) / 1000
	e.diags, e.hash, e.valid = ds, hash, len(ds) == 0
	e.ir = ""
	if e.valid {
		var pretty bytes.Buffer
		json.Indent(&pretty, canonical, "", "  ")
		e.ir = pretty.String()
	}
}

// onYAML handles typing in the YAML: compiled after a short pause, longer for long texts.
func (e *Editor) onYAML(ctx app.Context, ev app.Event) {
	e.yaml = ctx.JSSrc().Get("value").String()
	ctx.PreventUpdate() // the textarea already shows it; the page updates once compiled
	e.edits++
	n := e.edits
	wait := 10 * time.Millisecond // a paper-sized benchmark compiles in about a millisecond
	switch {
	case len(e.yaml) > 50_000:
		wait = 200 * time.Millisecond
	case len(e.yaml) > 5_000:
		wait = 40 * time.Millisecond
	}
	ctx.After(wait, func(ctx app.Context) {
		if n == e.edits {
			e.setYAML(ctx, e.yaml, false)
		}
	})
}

// formChanged writes the form back as canonical YAML, keeping the comment lines that head
// the file (the form has no place for comments inside it).
func (e *Editor) formChanged(ctx app.Context) {
	e.doc.SyncWeights()
	e.setYAML(ctx, form.WithHeader(e.doc.Canonical(), form.Header(e.yaml)), true)
}

// clearEmptiedInputs empties the form's text inputs whose value the YAML has just removed.
// go-app drops an empty value instead of setting it, which leaves the old text showing; each
// input says data-empty="true" when it should be empty. Called only after the YAML (not the
// form) changed the document, so no one is typing in the form.
func clearEmptiedInputs(app.Context) {
	inputs := app.Window().Get("document").Call("querySelectorAll", `#form input[data-empty="true"]`)
	for i := 0; i < inputs.Get("length").Int(); i++ {
		if in := inputs.Call("item", i); in.Get("value").String() != "" {
			in.Set("value", "")
		}
	}
}

func (e *Editor) Render() app.UI {
	return shell("/",
		e.renderToolbar(),
		app.If(e.note != "", func() app.UI {
			cls := "notice"
			if e.noteBad {
				cls += " error"
			}
			return app.Div().ID("editor-note").Class(cls).Text(e.note)
		}),
		app.Div().Class("grid-editor").Body(
			&formPanel{Ed: e, Rev: e.rev, Parses: e.parses},
			e.renderSource(),
			&irPanel{Valid: e.valid, Hash: e.hash, IR: e.ir},
		),
		&ontologyLists{},
	)
}

// The editor's panels are components of their own so that a keystroke in the YAML renders
// only what it changed: go-app renders a child component again only when its fields change.

// formPanel is the form; Rev changes whenever the document does.
type formPanel struct {
	app.Compo
	Ed     *Editor
	Rev    int
	Parses bool
}

// Render shows the form; while the YAML does not parse, the form is shown as it was but
// cannot be used, so that it cannot write over the text being typed.
func (p *formPanel) Render() app.UI {
	if p.Parses {
		return p.Ed.renderForm()
	}
	return app.Div().Body(
		app.P().ID("form-paused").Class("notice").Text("The YAML does not parse, so the form is paused: fix the problem under the YAML, or undo."),
		app.FieldSet().Disabled(true).Class("paused").Body(p.Ed.renderForm()),
	)
}

// irPanel is the IR preview.
type irPanel struct {
	app.Compo
	Valid    bool
	Hash, IR string
}

func (e *Editor) renderSource() app.UI {
	state, cls := "valid", "badge ok"
	if !e.valid {
		state, cls = pluralize(len(e.diags), "problem"), "badge bad"
	}
	return app.Section().Class("panel").Body(
		app.Div().Class("row").Body(
			app.H2().Text("YAML"),
			app.Span().ID("compile-state").Class(cls).Text(state),
			app.Span().Class("muted").Body(
				app.Text("compiled in "), app.Span().ID("compile-ms").Textf("%.2f", e.compileMS), app.Text(" ms"),
			),
		),
		app.Textarea().ID("yaml").Class("yaml").Spellcheck(false).
			Attr("autocomplete", "off").Attr("autocapitalize", "off").Attr("wrap", "off").
			Text(e.yaml).OnInput(e.onYAML),
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
				app.Div().Class("hash").Body(app.Text("IR hash "), app.Span().ID("ir-hash").Text(p.Hash)),
				app.Pre().ID("ir").Class("ir").Text(p.IR),
			)
		}).Else(func() app.UI {
			return app.P().ID("ir-none").Class("muted").Text("The IR appears when the benchmark is valid; fix the problems listed under the YAML.")
		}),
	)
}

// onDiagnostic moves the cursor to the clicked diagnostic. It reads the position from the
// element, which every render updates (go-app keeps a handler's first closure).
func (e *Editor) onDiagnostic(ctx app.Context, ev app.Event) {
	ds := ctx.JSSrc().Get("dataset")
	line, _ := strconv.Atoi(ds.Get("line").String())
	col, _ := strconv.Atoi(ds.Get("column").String())
	e.goTo(line, col)
}

// goTo puts the YAML's cursor at a line and column (1-based, in characters).
func (e *Editor) goTo(line, col int) {
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
