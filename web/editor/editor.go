package editor

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/web/form"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is the editor, the main page: the form, the YAML, live diagnostics and the IR
// preview. It compiles in the browser, so everything but open, save and run works without
// the server.
type Page struct {
	app.Compo

	yaml   string
	doc    *form.Doc // what the form shows: the last YAML that parsed, or the form's own edits
	valid  bool
	parses bool // the YAML parses: the form can write it back without losing anything
	// pausedWhy is why the form is paused, as the CLI says it (form.Paused); "" while the
	// YAML parses.
	pausedWhy string

	diags     diag.List
	canonical []byte // the canonical IR of the last valid compile: the bytes hash names
	ir        string // canonical, indented
	hash      string
	compileMS float64

	path       string                   // the workspace benchmark being edited, "" for a draft
	saved      string                   // its text as last opened or saved
	etag       string                   // the version of etagPath opened or saved: a save over it names it
	etagPath   string                   // the file etag is a version of; a save elsewhere creates
	conflict   *conflict                // the last save, refused: the file on disk is not what it assumed
	ask        *pending                 // an action that would discard unsaved edits, asking first
	stopKeys   func()                   // ends Ctrl+S, Ctrl+Z and the question on leaving
	history    history                  // undo and redo of the text
	benchmarks ui.Load[[]api.Benchmark] // the workspace's, for "open"
	template   string
	note       string // the outcome of the last open or save
	noteBad    bool
	warnNote   string // a note that is a warning (amber), not a success: while e.note is it

	tab       string // this tab's id: its draft is kept under it (drafts.go)
	elsewhere string // a file another open tab has unsaved edits of, opened here from disk
	notKept   bool   // the browser refused the last draft (full): the note says so

	later *form.Doc // the document typing in the YAML gave, until the form shows it (showAs)
	rev   int       // counts changes of the form's document: the form re-renders only then
	edits int       // counts YAML edits, so that only the last one of a burst compiles
	ready bool      // the page has been marked ready (data-benchy-ready, for tests and tools)

	// mounted is the page's own context, mounted as long as the page is. An event's
	// context is its element's: what it dispatches after the element went is dropped.
	mounted app.Context
}

// draft is what the browser keeps of the editor between visits.
type draft struct {
	Path  string `json:"path"`  // the workspace file it belongs to, if any
	YAML  string `json:"yaml"`  // the text as last edited
	Saved string `json:"saved"` // the file's text as last opened or saved; a new draft's start
	// ETag is the version of file ETagPath the text was opened or saved as: a save after a
	// reload still names it, so a change made on disk meanwhile is not overwritten.
	ETag     string `json:"etag,omitempty"`
	ETagPath string `json:"etag_path,omitempty"`
	At       int64  `json:"at,omitempty"` // when it was kept, Unix milliseconds: the newest orphan is adopted first
}

func (e *Page) OnMount(ctx app.Context) {
	e.template, e.mounted = "extract", ctx
	stopKeys, stopUnload := e.listenKeys(ctx), e.askOnLeave()
	e.stopKeys = func() { stopKeys(); stopUnload() }
	e.tab = claimTab(ctx)
	store := ctx.LocalStorage()
	drafts := keptDrafts(store, time.Now())
	p := app.Window().URL().Query().Get("path")
	how, k := choose(e.tab, p, drafts)
	var d draft // the tab's own, after a reload
	switch how {
	case own:
		d = k.draft
	case orphan: // moved to this tab: its own from now on
		forget(store, k.tab)
		drafts = slices.DeleteFunc(drafts, func(o kept) bool { return o.tab == k.tab })
	case elsewhere:
		e.elsewhere = p
	}
	for _, tab := range prune(e.tab, drafts, maxDrafts) {
		forget(store, tab)
	}
	switch {
	case how == orphan:
		d = k.draft
		e.path, e.saved, e.etag, e.etagPath = d.Path, d.Saved, d.ETag, d.ETagPath
		e.setYAML(ctx, d.YAML, false)
		showURL(e.path)
		e.note = "your unsaved draft from a closed tab is back"
		if d.Path != "" {
			e.note = "your unsaved changes to " + d.Path + " from a closed tab are back"
		}
	case p != "" && d.Path == p && d.YAML != d.Saved:
		// Unsaved edits of this very file: keep them rather than the server's copy.
		e.path, e.saved, e.etag, e.etagPath = p, d.Saved, d.ETag, d.ETagPath
		e.setYAML(ctx, d.YAML, false)
		e.note = "your unsaved changes to " + p + " are back; open it again to discard them"
	case p != "":
		e.path = p
		e.open(ctx, p, d)
	case d.YAML != "":
		e.path, e.saved, e.etag, e.etagPath = d.Path, d.Saved, d.ETag, d.ETagPath
		e.setYAML(ctx, d.YAML, false)
		showURL(e.path) // the URL names what is open: the draft's file, or none
	default:
		e.saved = paperExample
		e.setYAML(ctx, paperExample, false)
		showURL("")
	}
	e.loadList(ctx)
}

func (e *Page) OnDismount() {
	if e.stopKeys != nil {
		e.stopKeys()
	}
}

// unsaved reports whether the text differs from the workspace file it was opened from, or
// for a new draft from the text it started as (a template, the paper's example): what New,
// Open… or a template would lose.
func (e *Page) unsaved() bool { return e.yaml != e.saved }

// setYAML replaces the text, compiles it and fills the form from it when it parses. It is
// a step of its own for undo: a file opened, a template, a suggestion applied.
func (e *Page) setYAML(ctx app.Context, src string, fromForm bool) {
	e.change(ctx, src, fromForm, "")
}

// change is every change of the text but undo and redo: recorded for them as an edit of
// kind (see history.record), then shown.
func (e *Page) change(ctx app.Context, src string, fromForm bool, kind string) {
	e.history.record(src, kind, e.file(), time.Now())
	e.showAs(ctx, src, fromForm, kind == typing)
}

// file is the workspace file the text belongs to, as undo keeps it with each step.
func (e *Page) file() file {
	return file{path: e.path, saved: e.saved, etag: e.etag, etagPath: e.etagPath}
}

// leaveFile comes before another file (or New) replaces the text: undo brings this one
// back as it is now, saves included.
func (e *Page) leaveFile() {
	e.history.refresh(e.file())
	e.history.startFile()
}

// setFile makes f the file the text belongs to, after an undo or redo went to a step of
// another file; the URL, the path to save to and Open… follow.
func (e *Page) setFile(f file) {
	if f == e.file() {
		return
	}
	if f.path != e.path {
		e.conflict = nil              // about the other file
		e.note, e.noteBad = "", false // "opened …" was of the other file
		showURL(f.path)
		setValue("save-path", f.path) // go-app leaves an emptied value showing
		setValue("open", f.path)
	}
	e.path, e.saved, e.etag, e.etagPath = f.path, f.saved, f.etag, f.etagPath
}

// show makes src the text, compiles it and fills the form from it when it parses.
func (e *Page) show(ctx app.Context, src string, fromForm bool) { e.showAs(ctx, src, fromForm, false) }

// formLag is how long typing in the YAML must pause before the form shows what was typed:
// the diagnostics show at once, and rendering the form again at every key would double the
// time a keystroke takes to show them.
const formLag = 120 * time.Millisecond

// showAs is show; typed says the text comes from typing in the YAML, so that the form
// catches up only once the typing pauses (formLag), or when the form is used first.
func (e *Page) showAs(ctx app.Context, src string, fromForm, typed bool) {
	e.yaml = src
	e.compile()
	d, parses := form.FromYAML(src)
	e.parses, e.pausedWhy = parses, ""
	if !parses {
		e.pausedWhy = form.Paused(src) // once a text, not at every render
	}
	if !typed || !parses {
		e.catchUp(ctx) // a form that pauses shows the last text that parsed
	}
	switch {
	case fromForm:
		e.rev++
	case parses && typed:
		if reflect.DeepEqual(d, e.doc) {
			e.later = nil
			break
		}
		e.later = d
		n := e.edits
		ctx.After(formLag, func(ctx app.Context) {
			if n == e.edits {
				e.catchUp(ctx)
			}
		})
	case parses && !reflect.DeepEqual(d, e.doc):
		e.doc, e.rev = d, e.rev+1
		ctx.Defer(clearEmptiedInputs)
	case e.doc == nil:
		e.doc, e.rev = form.New("extract"), e.rev+1
	}
	e.keepDraft(ctx)
	if !e.ready {
		e.ready = true
		ctx.Defer(func(app.Context) { // after this state is on the page: then it is usable
			app.Window().Get("document").Get("body").Call("setAttribute", "data-benchy-ready", "1")
			app.Window().Get("performance").Call("mark", "benchy-ready")
		})
	}
}

// compile runs the compiler on the current text, as `benchy compile` does.
func (e *Page) compile() {
	start := time.Now()
	canonical, hash, ds := compiler.CompileCanonical([]byte(e.yaml))
	e.compileMS = float64(time.Since(start).Microseconds()) / 1000
	e.diags, e.hash, e.valid = ds, hash, len(ds) == 0
	e.canonical, e.ir = canonical, ""
	if e.valid {
		var pretty bytes.Buffer
		json.Indent(&pretty, canonical, "", "  ")
		e.ir = pretty.String()
	}
}

// catchUp gives the form the document typing in the YAML left it (showAs), if it has not
// caught up yet.
func (e *Page) catchUp(ctx app.Context) {
	if e.takeLater() {
		ctx.Defer(clearEmptiedInputs)
	}
}

// takeLater makes the document typing left (showAs) the form's, reporting whether there
// was one.
func (e *Page) takeLater() bool {
	if e.later == nil {
		return false
	}
	e.doc, e.later, e.rev = e.later, nil, e.rev+1
	return true
}

// onYAML handles typing in the YAML: a text of the paper's size compiled at once (in about
// a millisecond), a long one after a short pause, so that only the last key of a burst
// compiles.
func (e *Page) onYAML(ctx app.Context, ev app.Event) {
	e.yaml = ctx.JSSrc().Get("value").String()
	e.edits++
	n := e.edits
	var wait time.Duration
	switch {
	case len(e.yaml) > 50_000:
		wait = 200 * time.Millisecond
	case len(e.yaml) > 5_000:
		wait = 40 * time.Millisecond
	default:
		e.change(ctx, e.yaml, false, typing)
		return
	}
	ctx.PreventUpdate() // the textarea already shows it; the page updates once compiled
	ctx.After(wait, func(ctx app.Context) {
		if n == e.edits {
			e.change(ctx, e.yaml, false, typing)
		}
	})
}

// current is the document the form shows and edits: what the YAML typed last holds, even
// before the form caught up with it (showAs), so that a form edit never writes over it.
func (e *Page) current() *form.Doc {
	e.takeLater()
	return e.doc
}

// formChanged writes the form back as canonical YAML, keeping the comment lines that head
// the file (the form has no place for comments inside it).
func (e *Page) formChanged(ctx app.Context) {
	e.doc.SyncWeights()
	e.change(ctx, form.WithHeader(e.doc.Canonical(), form.Header(e.yaml)), true, control(ctx.JSSrc()))
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

func (e *Page) Render() app.UI {
	return ui.Shell("/",
		e.renderToolbar(),
		app.If(e.note != "", func() app.UI {
			cls := "notice ok"
			switch {
			case e.noteBad:
				cls = "notice error"
			case e.note == e.warnNote:
				cls = "notice"
			}
			return app.Div().ID("editor-note").Class(cls).Text(e.note)
		}),
		app.If(e.elsewhere != "" && e.elsewhere == e.path, func() app.UI {
			return app.Div().ID("drafts-note").Class("notice").Text("another tab has unsaved edits to " + e.elsewhere + "; this tab shows the file as saved")
		}),
		app.If(e.conflict != nil, e.renderConflict),
		app.If(e.ask != nil, e.renderAsk),
		app.Div().Class("grid-editor").Body(
			&formPanel{Owner: e, Rev: e.rev, Parses: e.parses, Paused: e.pausedWhy},
			e.renderSource(),
			&irPanel{Valid: e.valid, Hash: e.hash, IR: e.ir},
		),
		&ontologyLists{},
	)
}
