package ontology

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/ontology"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// Page is /ontology: the registry's tasks with their program rules, its domains
// and its languages, filtered as the user types. The registry is built into the app, so
// the page works offline; when the server answers, its registry is shown instead (it is
// the one its compiler checks against).
type Page struct {
	app.Compo

	reg    *ontology.Registry
	source string // "built in" or "server"
	query  string
}

func (p *Page) OnInit() {
	p.reg, _ = ontology.Lookup(ontology.Version)
	p.source = "built in"
}

func (p *Page) OnMount(ctx app.Context) {
	if p.reg == nil {
		p.OnInit()
	}
	if app.IsServer {
		return
	}
	ctx.Async(func() {
		reg, err := client.Default.Ontology(ctx)
		if err != nil || len(reg.Tasks) == 0 {
			return // offline, or an odd answer: the built-in registry stays
		}
		ctx.Dispatch(func(ctx app.Context) { p.reg, p.source = &reg, "server" })
	})
}

func (p *Page) onSearch(ctx app.Context, e app.Event) {
	p.query = ctx.JSSrc().Get("value").String()
}

// ontoMatches reports whether any of texts contains every word of the query, ignoring case.
func ontoMatches(query string, texts ...string) bool {
	all := strings.ToLower(strings.Join(texts, "\x00"))
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(all, w) {
			return false
		}
	}
	return true
}

func (p *Page) Render() app.UI {
	reg := p.reg
	if reg == nil {
		reg, _ = ontology.Lookup(ontology.Version)
	}
	var tasks, domains, langs []app.UI
	for _, t := range reg.Tasks {
		if !ontoMatches(p.query, append([]string{t.ID, t.Description}, t.Rules...)...) {
			continue
		}
		rules := make([]app.UI, 0, len(t.Rules))
		for _, r := range t.Rules {
			rules = append(rules, app.Li().Text(r))
		}
		if len(rules) == 0 {
			rules = append(rules, app.Li().Class("bad").Text("no program rule in this Benchy: benchmarks of this task do not compile"))
		}
		tasks = append(tasks, app.Div().Class("card task").DataSet("id", t.ID).Body(
			app.Div().Class("row").Body(app.Strong().Class("mono").Text(t.ID),
				app.If(!t.Supported, func() app.UI { return app.Span().Class("badge bad").Text("unsupported") })),
			app.Div().Class("muted").Text(t.Description),
			app.Ul().Class("rules").Body(rules...),
		))
	}
	for _, d := range reg.Domains {
		if ontoMatches(p.query, d.ID, d.Description) {
			domains = append(domains, app.Tr().Class("domain").DataSet("id", d.ID).Body(
				app.Td().Class("mono").Text(d.ID), app.Td().Text(d.Description)))
		}
	}
	for _, l := range reg.Languages {
		if ontoMatches(p.query, l.Code, l.Name, l.Native) {
			langs = append(langs, app.Tr().Class("language").DataSet("code", l.Code).Body(
				app.Td().Class("mono").Text(l.Code), app.Td().Text(l.Name), app.Td().Text(l.Native)))
		}
	}
	return ui.Shell("/ontology", app.Div().ID("ontology-page").DataSet("ready", ui.ReadyFlag(true)).Body(
		app.H1().Text("Ontology "+reg.Version),
		app.Div().Class("toolbar").Body(
			app.Input().ID("ontology-search").Class("search").Type("search").Value(p.query).
				Placeholder("Search tasks, rules, domains and languages (e.g. enum, finance, español)").
				AutoFocus(true).OnInput(p.onSearch),
		),
		app.P().ID("ontology-source").Class("muted").Text(p.summary(len(tasks), len(domains), len(langs))),
		app.Div().Class("ontology-grid").Body(
			app.Section().Class("panel").Body(
				app.H2().Text("Tasks"),
				app.Div().ID("tasks").Body(ontoOrEmpty(tasks, "No task matches.")...),
			),
			app.Section().Class("panel").Body(
				app.H2().Text("Domains"),
				ontoTable("domains", []string{"id", "description"}, domains, "No domain matches."),
			),
			app.Section().Class("panel").Body(
				app.H2().Text("Languages"),
				ontoTable("languages", []string{"code", "name", "native name"}, langs, "No language matches."),
			),
		),
	))
}

// summary counts what the search shows, and where the registry comes from.
func (p *Page) summary(tasks, domains, langs int) string {
	s := ui.Plural(tasks, "task") + ", " + ui.Plural(domains, "domain") + ", " + ui.Plural(langs, "language")
	if strings.TrimSpace(p.query) != "" {
		s += " match “" + strings.TrimSpace(p.query) + "”"
	}
	if p.source == "server" {
		return s + " · the server's registry"
	}
	return s + " · built into the app (works offline)"
}

// ontoOrEmpty is items, or a note that there are none.
func ontoOrEmpty(items []app.UI, none string) []app.UI {
	if len(items) == 0 {
		return []app.UI{app.P().Class("muted empty").Text(none)}
	}
	return items
}

// ontoTable is a data table with id and columns, or a note when it has no rows.
func ontoTable(id string, cols []string, rows []app.UI, none string) app.UI {
	head := make([]app.UI, 0, len(cols))
	for _, c := range cols {
		head = append(head, app.Th().Text(c))
	}
	return app.Div().ID(id).Body(
		app.Table().Class("data").Body(app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)),
		app.If(len(rows) == 0, func() app.UI { return app.P().Class("muted empty").Text(none) }),
	)
}
