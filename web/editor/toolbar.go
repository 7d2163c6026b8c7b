package editor

import (
	"errors"
	"path"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/form"
	"github.com/benchy-eval/benchy/web/ui"
)

// templates are the tasks a new benchmark can start from.
var templates = []string{"extract", "classify", "transcribe", "translate"}

func (e *Page) renderToolbar() app.UI {
	return app.Div().Class("toolbar").Body(
		app.Select().ID("template").Title("task of the new benchmark").
			OnChange(e.onTemplate).
			Body(app.Range(templates).Slice(func(i int) app.UI {
				return app.Option().Value(templates[i]).Text("new " + templates[i]).Selected(templates[i] == e.template)
			})),
		app.Button().ID("new").Text("New").OnClick(e.onNew),
		app.Select().ID("open").Title("open a benchmark of the workspace").OnChange(e.onOpen).Body(
			app.Option().Value("").Text("Open…"),
			app.Range(e.benchmarks.Value).Slice(func(i int) app.UI {
				b := e.benchmarks.Value[i]
				label := b.Path
				if !b.Valid {
					label += " (invalid)"
				}
				return app.Option().Value(b.Path).Text(label).Selected(b.Path == e.path)
			}),
		),
		// Arrows, not words, so that the toolbar stays on one line at 1280 px.
		app.Button().ID("undo").Text("↶").Aria("label", "Undo").Disabled(!e.history.canUndo()).
			Title("Undo the last change, of the YAML or the form (Ctrl+Z, ⌘Z)").OnClick(e.onUndo),
		app.Button().ID("redo").Text("↷").Aria("label", "Redo").Disabled(!e.history.canRedo()).
			Title("Redo what was undone (Ctrl+Shift+Z or Ctrl+Y, ⇧⌘Z)").OnClick(e.onRedo),
		textInput(e.path).ID("save-path").Placeholder("folder/benchmark.yaml").
			Title("where to save it in the workspace").
			OnChange(func(ctx app.Context, ev app.Event) { e.path = strings.TrimSpace(ctx.JSSrc().Get("value").String()) }).
			OnKeyDown(func(ctx app.Context, ev app.Event) { // Enter saves there, as Save does
				if ev.Get("key").String() == "Enter" {
					ev.PreventDefault()
					e.onSave(ctx, ev)
				}
			}),
		app.Button().ID("save").Class("primary").Text("Save").OnClick(e.onSave),
		app.If(e.unsaved(), func() app.UI {
			return app.Span().ID("unsaved").Class("badge").Title("the text differs from the saved file, or is saved nowhere").Text("unsaved")
		}),
		app.Span().Class("sep"),
		app.Button().ID("download-yaml").Text("Download YAML").OnClick(func(ctx app.Context, ev app.Event) {
			download(baseName(e.path, "benchmark.yaml"), "application/yaml", e.yaml)
		}),
		app.Button().ID("download-ir").Text("Download IR").Disabled(!e.valid).
			Title("the canonical bytes, as benchy compile writes them: their sha256 is the IR hash").
			OnClick(func(ctx app.Context, ev app.Event) {
				ui.SaveBytes(irName(e.path), "application/json", e.canonical)
			}),
		app.Button().ID("download-ir-pretty").Text("Download IR (pretty)").Disabled(!e.valid).
			Title("indented for people, as benchy compile --pretty writes it (not the bytes the hash names)").
			OnClick(func(ctx app.Context, ev app.Event) {
				download(strings.TrimSuffix(irName(e.path), ".json")+".pretty.json", "application/json", e.ir+"\n")
			}),
		app.If(e.path != "", func() app.UI {
			return app.A().ID("run-link").Class("button").Href(ui.RunsURL(e.path, "")).Text("Run…")
		}),
	)
}

func baseName(p, def string) string {
	if p == "" {
		return def
	}
	return path.Base(p)
}

// irName is the name a download of the IR of benchmark p gets: its own, .ir.json.
func irName(p string) string {
	return strings.TrimSuffix(strings.TrimSuffix(baseName(p, "benchmark.yaml"), ".yaml"), ".yml") + ".ir.json"
}

// download hands text to the browser as a file.
func download(name, mime, text string) { ui.SaveBytes(name, mime, []byte(text)) }

func (e *Page) onNew(ctx app.Context, ev app.Event) {
	e.orAsk(ctx, "start a new "+e.template+" benchmark", e.newDraft)
}

// onTemplate starts a new benchmark of the task chosen (asking first, as New does).
func (e *Page) onTemplate(ctx app.Context, ev app.Event) {
	e.template = ctx.JSSrc().Get("value").String()
	e.onNew(ctx, ev)
}

// newDraft replaces the text with the template of e.template, a draft of no file: the
// URL says so, so that a reload keeps the draft rather than opening the file again.
func (e *Page) newDraft(ctx app.Context) {
	e.leaveFile()
	e.doc = form.New(e.template)
	text := e.doc.Canonical()
	e.path, e.saved, e.note, e.etag, e.etagPath, e.conflict = "", text, "", "", "", nil
	setValue("save-path", "") // go-app leaves an emptied value showing
	setValue("open", "")
	e.setYAML(ctx, text, true)
	showURL("")
}

// loadList reads the workspace's benchmarks for "open"; without the server the list stays
// as it was (empty, offline).
func (e *Page) loadList(ctx app.Context) {
	ui.Fetch(ctx, &e.benchmarks, "", client.Default.Benchmarks, nil)
}

func (e *Page) onOpen(ctx app.Context, ev app.Event) {
	if p := ctx.JSSrc().Get("value").String(); p != "" {
		e.orAsk(ctx, "open "+p, func(ctx app.Context) { e.open(ctx, p, draft{}) })
	}
}

// open loads a workspace benchmark into the editor. When the server cannot be reached, the
// editor keeps (or shows) fallback, the text the browser kept; when fallback holds unsaved
// edits of another draft (the URL named a file, the browser kept a draft), it shows them
// and asks before opening the file.
func (e *Page) open(ctx app.Context, p string, fallback draft) {
	ctx.Async(func() {
		file, err := client.Default.Benchmark(ctx, p)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				e.refused(ctx, p, err, fallback)
				return
			}
			show := func(ctx app.Context) {
				e.leaveFile()
				e.path, e.saved, e.note, e.noteBad = p, file.YAML, "opened "+p, false
				e.etag, e.etagPath, e.conflict = file.ETag, p, nil
				e.setYAML(ctx, file.YAML, false)
				showURL(p)
			}
			if e.doc == nil && fallback.YAML != "" && fallback.YAML != fallback.Saved {
				e.path, e.saved, e.etag, e.etagPath = fallback.Path, fallback.Saved, fallback.ETag, fallback.ETagPath
				e.setYAML(ctx, fallback.YAML, false)
				showURL(e.path)
				e.ask = &pending{what: "open " + p, do: show}
				return
			}
			show(ctx)
		})
	})
}

// refused shows why file p could not be opened and keeps what the editor shows: the
// draft as it was, or, when nothing is shown yet (the page opened at /?path=p), the kept
// text, fallback, or the paper's example. A file the server refuses (not UTF-8, say: its
// text would come with U+FFFD for the bad bytes, which a save would write over them) is
// not open, so the URL and Open… name what is shown instead, and a reload shows it again;
// without the server the URL keeps naming p, so that a reload opens it once it is back.
func (e *Page) refused(ctx app.Context, p string, err error, fallback draft) {
	e.note, e.noteBad = "cannot open "+p+": "+errorText(err), true
	if e.doc == nil {
		e.path, e.saved, e.etag, e.etagPath = fallback.Path, fallback.Saved, fallback.ETag, fallback.ETagPath
		e.setYAML(ctx, orDefault(fallback.YAML, paperExample), false)
	}
	setValue("open", e.path)
	if !client.Offline(err) {
		showURL(e.path)
	}
}

// savePath checks a workspace path typed by the user and completes it: relative, inside the
// workspace, no hidden folders, ending in .yaml (added when missing).
func savePath(typed string) (string, error) {
	p := strings.TrimPrefix(strings.TrimSpace(typed), "./")
	switch {
	case p == "":
		return "", errors.New("name the file first, e.g. my-benchmark/benchmark.yaml")
	case strings.HasPrefix(p, "/") || strings.Contains(p, "\\"):
		return "", errors.New("the path is relative to the workspace, with / between folders, e.g. my-benchmark/benchmark.yaml")
	case strings.ContainsAny(p, "?#%"):
		return "", errors.New("a file name cannot contain ?, # or %")
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "" || seg == ".":
			return "", errors.New("the path has an empty folder name")
		case seg == "..":
			return "", errors.New("the file must be inside the workspace: no ..")
		case strings.HasPrefix(seg, "."):
			return "", errors.New("hidden files and folders (starting with .) are not benchmarks")
		}
	}
	lower := strings.ToLower(p)
	switch {
	case strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml"):
		p = p[:strings.LastIndex(p, ".")] + lower[strings.LastIndex(lower, "."):]
	default:
		p += ".yaml"
	}
	if path.Base(p) == "benchy.runtime.yaml" {
		return "", errors.New("benchy.runtime.yaml is the workspace's runtime file, not a benchmark")
	}
	return p, nil
}

// errorText explains an API error; a network error means the server is not reachable.
func errorText(err error) string {
	if client.Offline(err) {
		return "the server is not reachable (editing and the IR preview still work offline)"
	}
	return err.Error()
}
