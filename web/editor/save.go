package editor

import (
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// A save never overwrites what the user has not seen: it names the version of the file
// the editor opened or last saved (its etag), or, under a name the editor has no version
// of, creates the file only if there is none. When the server says the file is not that
// version, the page shows the file as it is beside the draft and the user chooses; the
// draft stays as it was whatever fails.

// conflict is a save the server refused because the file on disk is not what the save
// assumed: changed since it was opened (or gone), or existing when the save created it.
type conflict struct {
	path   string
	exists bool   // the save was a create, over a file that exists: ask before overwriting
	theirs string // the file on disk, "" when it is gone
	etag   string // its version: a save naming it overwrites it; "" when gone
}

func (e *Page) onSave(ctx app.Context, ev app.Event) {
	typed := e.path
	if el := app.Window().GetElementByID("save-path"); el.Truthy() {
		typed = el.Get("value").String()
	}
	p, err := savePath(typed)
	if err != nil {
		e.note, e.noteBad = "not saved: "+err.Error(), true
		if el := app.Window().GetElementByID("save-path"); el.Truthy() {
			el.Call("focus") // where the name goes
		}
		return
	}
	etag := "" // a name the editor has no version of: create it, or ask
	if p == e.etagPath {
		etag = e.etag
	}
	e.save(ctx, p, etag)
}

// save writes the text to workspace file p over version etag ("" to create it only).
func (e *Page) save(ctx app.Context, p, etag string) {
	src := e.yaml
	ctx.Async(func() {
		file, err := client.Default.SaveBenchmark(ctx, p, src, etag)
		ctx.Dispatch(func(ctx app.Context) {
			if c := client.AsConflict(err); c != nil {
				e.conflict = &conflict{path: p, exists: etag == "", theirs: c.YAML, etag: c.ETag}
				e.note, e.noteBad = "", false // the panel says it
				ctx.Defer(showChanges)
				return
			}
			if err != nil {
				e.note, e.noteBad = "not saved: "+errorText(err), true
				return
			}
			e.conflict = nil
			e.path, e.saved, e.note, e.noteBad = p, src, "saved "+p, false
			e.etagPath, e.etag = p, file.ETag
			if !e.valid {
				e.note += " (it still has problems: runs need a valid benchmark)"
				e.warnNote = e.note
			}
			e.keepDraft(ctx)
			app.Window().Get("history").Call("replaceState", nil, "", ui.EditorURL(p))
			e.loadList(ctx)
		})
	})
}

// conflictText says why a save was refused and what the page offers.
func conflictText(c *conflict) string {
	switch {
	case c.exists:
		return c.path + " exists already: overwrite it with your text?"
	case c.etag == "":
		return c.path + " was deleted since you opened it"
	}
	return c.path + " was changed on disk since you opened it: keep your text, or take the file as it is now"
}

// onKeepMine overwrites the file as it is now (or creates it again) with the draft.
func (e *Page) onKeepMine(ctx app.Context, ev app.Event) {
	if c := e.conflict; c != nil {
		e.save(ctx, c.path, c.etag)
	}
}

// onTakeTheirs replaces the draft with the file as it is on disk.
func (e *Page) onTakeTheirs(ctx app.Context, ev app.Event) {
	c := e.conflict
	if c == nil {
		return
	}
	e.conflict = nil
	e.path, e.saved, e.etagPath, e.etag = c.path, c.theirs, c.path, c.etag
	e.note, e.noteBad = "took "+c.path+" as it is on disk", false
	e.setYAML(ctx, c.theirs, false)
	app.Window().Get("history").Call("replaceState", nil, "", ui.EditorURL(c.path))
}

func (e *Page) onCancelSave(ctx app.Context, ev app.Event) {
	e.conflict, e.note, e.noteBad = nil, "not saved", false
	e.warnNote = e.note
}

// renderConflict shows the file on disk beside the draft, and the choices (only while
// there is a conflict).
func (e *Page) renderConflict() app.UI {
	c := e.conflict
	var buttons []app.UI
	switch {
	case c.exists:
		buttons = []app.UI{
			app.Button().ID("confirm-overwrite").Class("danger").Text("Overwrite " + c.path).OnClick(e.onKeepMine),
			app.Button().ID("cancel-save").Text("Cancel").OnClick(e.onCancelSave),
		}
	case c.etag == "":
		buttons = []app.UI{
			app.Button().ID("keep-mine").Class("primary").Text("Keep mine (save it again)").OnClick(e.onKeepMine),
			app.Button().ID("cancel-save").Text("Cancel").OnClick(e.onCancelSave),
		}
	default:
		buttons = []app.UI{
			app.Button().ID("keep-mine").Class("danger").Text("Keep mine (overwrite)").OnClick(e.onKeepMine),
			app.Button().ID("take-theirs").Text("Take theirs").OnClick(e.onTakeTheirs),
		}
	}
	theirs := c.theirs
	if c.etag == "" {
		theirs = "(no file)"
	}
	head, changedTheirs, changedMine, tail := changedLines(theirs, e.yaml)
	return app.Section().ID("conflict").Class("panel").DataSet("exists", c.exists).Body(
		app.Div().Class("row").Body(app.H2().Text("Not saved: "+conflictText(c))),
		app.Div().Class("cards").Style("grid-template-columns", "minmax(0, 1fr) minmax(0, 1fr)").Body( // long lines scroll, not the page
			app.Div().Class("card").Body(
				app.H3().Text("The file on disk"),
				app.Pre().ID("conflict-theirs").Class("ir").Body(app.Text(head), app.Mark().Text(changedTheirs), app.Text(tail)),
			),
			app.Div().Class("card").Body(
				app.H3().Text("Your text"),
				app.Pre().ID("conflict-mine").Class("ir").Body(app.Text(head), app.Mark().Text(changedMine), app.Text(tail)),
			),
		),
		app.Div().Class("row").Body(buttons...),
	)
}

// changedLines splits two texts into the lines they share at the start and at the end and
// the lines between, where they differ: what the conflict panel marks. Linear, so a file
// of a megabyte costs nothing; a change in two places is marked as one span.
func changedLines(a, b string) (head, aMid, bMid, tail string) {
	al, bl := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	j := 0
	for j < len(al)-i && j < len(bl)-i && al[len(al)-1-j] == bl[len(bl)-1-j] {
		j++
	}
	return strings.Join(al[:i], ""), strings.Join(al[i:len(al)-j], ""), strings.Join(bl[i:len(bl)-j], ""), strings.Join(al[len(al)-j:], "")
}

// showChanges scrolls each text of the conflict panel to where it differs from the other.
func showChanges(app.Context) {
	doc := app.Window().Get("document")
	for _, id := range []string{"conflict-theirs", "conflict-mine"} {
		pre := doc.Call("getElementById", id)
		if !pre.Truthy() {
			continue
		}
		if mark := pre.Call("querySelector", "mark"); mark.Truthy() {
			top := mark.Call("getBoundingClientRect").Get("top").Float() - pre.Call("getBoundingClientRect").Get("top").Float()
			pre.Set("scrollTop", max(0, pre.Get("scrollTop").Float()+top-40))
		}
	}
}

// keepDraft records the editor's state in the browser, under this tab's id, so that a
// reload loses nothing (drafts.go). A browser that refuses it (its storage full) is said so:
// the edits then live only in the page.
func (e *Page) keepDraft(ctx app.Context) {
	d := draft{Path: e.path, YAML: e.yaml, Saved: e.saved, ETag: e.etag, ETagPath: e.etagPath, At: time.Now().UnixMilli()}
	err := ctx.LocalStorage().Set(draftPrefix+e.tab, d)
	switch {
	case err != nil:
		e.notKept = true
		e.note, e.noteBad = "the browser does not keep your edits ("+err.Error()+"): a reload would lose them; save them, or close other editor tabs", true
	case e.notKept:
		e.notKept = false
		e.note, e.noteBad = "", false
	}
}
