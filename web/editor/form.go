package editor

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/ontology"
	"github.com/benchy-eval/benchy/web/form"
)

// formPanel is the form: a component of its own, so that a keystroke in the YAML renders
// only what it changed (go-app renders a child component again only when its exported
// fields change: Rev changes whenever the document does). It edits the document its Owner
// holds and tells the Owner when it did; everything else about the form is its own.
type formPanel struct {
	app.Compo
	Owner  document
	Rev    int
	Parses bool
	// Paused is why the form cannot be used while the YAML does not parse, as the CLI says
	// it (line:column: code: message), a duplicate key as duplicate_key at its line.
	Paused string

	wholeForm bool              // show every field of a very large program
	typed     map[string]string // names typed that another entry has, not written (names.go)
	taskNote  string            // what the last switch of task added (form.Doc.SetTask)
}

// document is what the form panel edits: the editor's document, read when the form is
// rendered and when an event fires (the editor may have replaced it since), and what to do
// once the form changed it. An interface holding the editor, because go-app compares a
// child's fields to decide whether it changed: the same pointer is equal, a func never is.
type document interface {
	current() *form.Doc
	formChanged(ctx app.Context)
}

// Render shows the form; while the YAML does not parse, the form is shown as it was but
// cannot be used, so that it cannot write over the text being typed.
func (p *formPanel) Render() app.UI {
	if p.Parses {
		return p.renderForm()
	}
	why := p.Paused
	if why == "" {
		why = "the YAML does not parse"
	}
	return app.Div().Body(
		app.P().ID("form-paused").Class("notice").Text("The form is paused, so that it cannot write over the text ("+why+"): fix it in the YAML, or undo."),
		app.FieldSet().Disabled(true).Class("paused").Body(p.renderForm()),
	)
}

// systemParts names the part of ai-system each text input of renderSystem writes.
var systemParts = map[string]string{"provider": "provider", "model": "model", "prompt": "prompt", "system-id": "id"}

// registry is the embedded ontology: the form's choices work offline.
var registry, _ = ontology.Lookup(ontology.Version)

func value(ctx app.Context) string { return ctx.JSSrc().Get("value").String() }

// edit returns an event handler that applies f to the current form, then rewrites the
// YAML. f must not capture anything that changes between renders (see editor_fields.go),
// or the element must be given a scope that changes with it.
func (p *formPanel) edit(f func(d *form.Doc, v string)) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		d := p.Owner.current()
		if d == nil {
			return
		}
		f(d, value(ctx))
		p.Owner.formChanged(ctx)
	}
}

func (p *formPanel) renderForm() app.UI {
	d := p.Owner.current()
	if d == nil {
		return app.Section().Class("panel").Body(app.P().Class("muted").Text("Loading…"))
	}
	var list []form.Lock
	if p.Parses { // a paused form shows no reasons of the text before
		list = d.Locked()
	}
	lk := lockSet(list)
	if n := countFields(d.Input) + countFields(d.Output); n > bigForm && !p.wholeForm {
		return app.Section().ID("form").Class("panel").Body(
			app.H2().Text("Benchmark"),
			renderLocks(list),
			p.renderClassification(d, lk),
			app.P().ID("form-folded").Class("notice").Textf("This program has %d fields: the form is folded so that typing in the YAML stays fast.", n),
			app.Button().ID("unfold-form").Text("Show every field").OnClick(func(ctx app.Context, ev app.Event) { p.wholeForm = true }),
			app.H3().Text("Data"),
			lk.part([]string{"data.path"}, p.dataPath(d)),
			app.H3().Text("AI-system"),
			p.renderSystem(d, lk),
		)
	}
	return app.Section().ID("form").Class("panel").Body(
		app.H2().Text("Benchmark"),
		renderLocks(list),
		app.If(p.taskNote != "", func() app.UI { return app.P().ID("task-note").Class("notice").Text(p.taskNote) }),
		p.renderClassification(d, lk),
		app.H3().Text("Program: input"),
		lk.part([]string{"program.input"},
			p.fieldTree("input", d.Input, nil),
			app.Button().ID("add-input").Class("small").Text("+ input field").OnClick(p.add(func(d *form.Doc) string {
				d.Input = append(d.Input, form.Field{Name: freeName(d.Input, "field"), Type: "string"})
				return fieldName("input", []int{len(d.Input) - 1})
			})),
		),
		app.H3().Text("Program: output"),
		lk.part([]string{"program.output"},
			p.fieldTree("output", d.Output, nil),
			app.Button().ID("add-output").Class("small").Text("+ output field").OnClick(p.add(func(d *form.Doc) string {
				d.Output = append(d.Output, form.Field{Name: freeName(d.Output, "field"), Type: "string"})
				return fieldName("output", []int{len(d.Output) - 1})
			})),
		),
		app.H3().Text("Scoring: weights"),
		lk.part([]string{"scoring.weights"}, p.renderWeights(d)),
		app.H3().Text("Data"),
		app.Label().For("data-path").Text("JSONL dataset, relative to the benchmark file"),
		lk.part([]string{"data.path"}, p.dataPath(d)),
		app.H3().Text("AI-system"),
		p.renderSystem(d, lk),
	)
}

func (p *formPanel) renderClassification(d *form.Doc, lk locks) app.UI {
	tasks := registry.Tasks
	lang := func(id, label, v string, set func(d *form.Doc, v string)) app.UI {
		return lk.part([]string{"benchmark.language"},
			app.Label().For(id).Text(label),
			textInput(v).ID(id).List("languages").Placeholder("es, en, …").
				Attr("autocomplete", "off").OnInput(p.edit(set)),
		)
	}
	return app.Div().Body(
		app.Div().Class("row").Body(
			lk.part([]string{"benchmark.task", "benchmark.language"},
				app.Label().For("task").Text("task"),
				app.Select().ID("task").OnChange(p.edit(func(d *form.Doc, v string) { p.taskNote = d.SetTask(v) })).Body(
					app.If(!registry.HasTask(d.Task), func() app.UI { return app.Option().Value(d.Task).Text(d.Task + " (unknown)").Selected(true) }),
					app.Range(tasks).Slice(func(i int) app.UI {
						t := tasks[i]
						return app.Option().Value(t.ID).Text(t.ID).Title(t.Description).Selected(t.ID == d.Task).Disabled(!t.Supported)
					}),
				),
			),
			lk.part([]string{"benchmark.domain"},
				app.Label().For("domain").Text("domain"),
				textInput(d.Domain).ID("domain").List("domains").Placeholder("search domains").
					Attr("autocomplete", "off").OnInput(p.edit(func(d *form.Doc, v string) { d.Domain = v })),
			),
			app.If(d.Task == "translate", func() app.UI {
				return app.Div().Class("row").Body(
					lang("source", "source language", d.Source, func(d *form.Doc, v string) { d.Source = v }),
					lang("target", "target language", d.Target, func(d *form.Doc, v string) { d.Target = v }),
				)
			}).Else(func() app.UI {
				return lang("language", "language", d.Language, func(d *form.Doc, v string) { d.Language = v })
			}),
		),
		app.If(ruleText(d.Task) != "", func() app.UI { return app.P().Class("muted").Text(ruleText(d.Task)) }),
	)
}

// ontologyLists are the choices the domain and language inputs offer as you type. They never
// change, so they are rendered once.
type ontologyLists struct{ app.Compo }

func (o *ontologyLists) Render() app.UI {
	return app.Div().Body(
		app.DataList().ID("domains").Body(app.Range(registry.Domains).Slice(func(i int) app.UI {
			return app.Option().Value(registry.Domains[i].ID).Label(registry.Domains[i].Description)
		})),
		app.DataList().ID("languages").Body(app.Range(registry.Languages).Slice(func(i int) app.UI {
			l := registry.Languages[i]
			return app.Option().Value(l.Code).Label(l.Name + " — " + l.Native)
		})),
	)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func ruleText(task string) string {
	for _, t := range registry.Tasks {
		if t.ID == task && len(t.Rules) > 0 {
			return "Rules for " + task + ": " + strings.Join(t.Rules, "; ") + "."
		}
	}
	return ""
}

func (p *formPanel) renderWeights(d *form.Doc) app.UI {
	leaves := d.Leaves()
	if len(leaves) == 0 {
		return app.P().ID("weights").Class("muted").Text("Add output fields: each leaf gets a weight.")
	}
	return app.Table().ID("weights").Class("weights").Body(app.TBody().Body(
		app.Range(leaves).Slice(func(i int) app.UI {
			l := leaves[i]
			return app.Tr().Body(
				app.Td().Class("mono").Text(l.String()),
				app.Td().Body(textInput(l.Weight).Attr("inputmode", "decimal").DataSet("path", l.String()).
					OnInput(p.edit(func(d *form.Doc, v string) { d.SetWeight(l.At, v) }), app.EventScope(strings.Join(intStrings(l.At), ".")))),
			)
		}),
	))
}

func (p *formPanel) renderSystem(d *form.Doc, lk locks) app.UI {
	text := func(id, label, v, hint string, set func(d *form.Doc, v string)) app.UI {
		return lk.part([]string{"ai-system." + systemParts[id]},
			app.Label().For(id).Text(label),
			textInput(v).ID(id).Placeholder(hint).OnInput(p.edit(set)),
		)
	}
	return app.Div().Body(
		lk.part([]string{"ai-system.type", "ai-system.id", "ai-system.provider", "ai-system.model", "ai-system.prompt", "ai-system.parameters"},
			app.Select().ID("system-type").OnChange(p.edit(func(d *form.Doc, v string) { d.SystemType = v })).Body(
				app.Option().Value("external").Text("external: bound to an adapter at run time").Selected(d.SystemType != "model"),
				app.Option().Value("model").Text("model: a provider's model").Selected(d.SystemType == "model"),
			),
		),
		app.If(d.SystemType == "model", func() app.UI {
			return app.Div().Body(
				text("provider", "provider (named in the workspace's runtime file)", d.Provider, "openai", func(d *form.Doc, v string) { d.Provider = v }),
				text("model", "model", d.Model, "gpt-4o-mini", func(d *form.Doc, v string) { d.Model = v }),
				text("prompt", "prompt file (optional, relative)", d.Prompt, "./prompt.md", func(d *form.Doc, v string) { d.Prompt = v }),
				lk.part([]string{"ai-system.parameters"}, p.renderParams(d)),
			)
		}).Else(func() app.UI {
			return text("system-id", "id (bound by the benchy.runtime.yaml beside the benchmark or above it)", d.SystemID, "my-system-v1", func(d *form.Doc, v string) { d.SystemID = v })
		}),
	)
}

func (p *formPanel) renderParams(d *form.Doc) app.UI {
	return app.Div().ID("params").Body(
		app.Label().Text("parameters"),
		app.Range(d.Params).Slice(func(i int) app.UI {
			return app.Div().Class("field").Body(
				textInput(p.shownName(paramKey(i), d.Params[i].Key)).Class("name").Placeholder("temperature").
					OnInput(p.onParamKey(i), app.EventScope(i)).
					OnBlur(p.onParamKeyLeft(i), app.EventScope(i)),
				textInput(d.Params[i].Value).Placeholder("0").
					OnInput(p.edit(func(d *form.Doc, v string) {
						if i < len(d.Params) {
							d.Params[i].Value = v
						}
					}), app.EventScope(i)),
				app.Button().Class("small danger").Text("×").Title("remove").OnClick(p.edit(func(d *form.Doc, _ string) {
					if i < len(d.Params) {
						d.Params = slices.Delete(d.Params, i, i+1)
					}
				}), app.EventScope(i)),
			)
		}),
		app.Button().ID("add-param").Class("small").Text("+ parameter").OnClick(p.add(func(d *form.Doc) string {
			d.Params = append(d.Params, newParam(d.Params))
			return "#params .field:nth-of-type(" + strconv.Itoa(len(d.Params)) + ") input.name"
		})),
	)
}

// bigForm is the number of fields beyond which the form is folded until asked for.
const bigForm = 200

func countFields(fs []form.Field) int {
	n := len(fs)
	for _, f := range fs {
		n += countFields(f.Children)
	}
	return n
}

// newParam is a parameter the list does not have yet: a common one first.
func newParam(have []form.Param) form.Param {
	taken := func(k string) bool { return slices.ContainsFunc(have, func(p form.Param) bool { return p.Key == k }) }
	for _, p := range []form.Param{{Key: "temperature", Value: "0"}, {Key: "max_tokens", Value: "1024"}, {Key: "seed", Value: "1"}, {Key: "top_p", Value: "1"}} {
		if !taken(p.Key) {
			return p
		}
	}
	for i := 2; ; i++ {
		if k := "param_" + strconv.Itoa(i); !taken(k) {
			return form.Param{Key: k, Value: "0"}
		}
	}
}

// dataPath is the input of the dataset's path.
func (p *formPanel) dataPath(d *form.Doc) app.UI {
	return textInput(d.DataPath).ID("data-path").OnInput(p.edit(func(d *form.Doc, v string) { d.DataPath = v }))
}

// textInput is a text input showing v. go-app drops an empty value instead of setting it,
// which leaves the old text showing; data-empty says the input should be empty, and
// clearEmptiedInputs empties it after the YAML changed the form.
func textInput(v string) app.HTMLInput {
	return app.Input().Type("text").Value(v).DataSet("empty", v == "")
}

// onParamKey renames parameter i as its key is typed; a key another parameter has is not
// written but said on the input, as onRename does for fields.
func (p *formPanel) onParamKey(i int) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		d := p.Owner.current()
		if d == nil || i >= len(d.Params) {
			return
		}
		v := value(ctx)
		taken := v != d.Params[i].Key && slices.ContainsFunc(d.Params, func(q form.Param) bool { return q.Key == v })
		if p.refused(ctx.JSSrc(), paramKey(i), v, taken, "another parameter") {
			return
		}
		d.Params[i].Key = v
		p.Owner.formChanged(ctx)
	}
}

// onParamKeyLeft: leaving a key input holding a key not written shows the parameter's key.
func (p *formPanel) onParamKeyLeft(i int) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		if d := p.Owner.current(); d != nil && i < len(d.Params) {
			p.left(ctx.JSSrc(), paramKey(i), d.Params[i].Key)
		}
	}
}

// paramKey names parameter i among the names typed (formPanel.typed).
func paramKey(i int) string { return "param." + strconv.Itoa(i) }
