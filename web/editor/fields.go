package editor

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/form"
)

// go-app keeps an element's first event handler for as long as the handler's code and
// scope stay the same, whatever its closure captured. So the form's handlers capture only
// where a field is (its side and index path, also given as the scope) and look it up in the
// current document when the event fires.

// fieldList is the list of fields at side and path (nil: the top level), or nil.
func (p *formPanel) fieldList(side string, at []int) *[]form.Field {
	d := p.Owner.current()
	if d == nil {
		return nil
	}
	list := &d.Input
	if side == "output" {
		list = &d.Output
	}
	for _, i := range at {
		if i >= len(*list) {
			return nil
		}
		list = &(*list)[i].Children
	}
	return list
}

// onField returns a handler that changes the field at side/at, then rewrites the YAML.
func (p *formPanel) onField(side string, at []int, f func(list *[]form.Field, i int, v string)) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		list := p.fieldList(side, at[:len(at)-1])
		i := at[len(at)-1]
		if list == nil || i >= len(*list) {
			return
		}
		f(list, i, value(ctx))
		p.Owner.formChanged(ctx)
	}
}

// fieldTree renders a list of program fields, each editable, removable and nestable.
func (p *formPanel) fieldTree(side string, list []form.Field, at []int) app.UI {
	id := ""
	if at == nil {
		id = side + "-fields"
	}
	return app.Ul().ID(id).Class("fieldtree").Body(
		app.Range(list).Slice(func(i int) app.UI {
			return p.fieldRow(side, list[i], append(slices.Clone(at), i))
		}),
	)
}

func (p *formPanel) fieldRow(side string, f form.Field, at []int) app.UI {
	i := at[len(at)-1]
	key := fieldKey(side, at)
	scope := app.EventScope(key)
	return app.Li().Body(
		app.Div().Class("field").DataSet("field", key).Body(
			textInput(p.shownName(key, f.Name)).Class("name").Placeholder("name").Title("field name").
				OnInput(p.onRename(side, at), scope).
				OnBlur(p.onNameLeft(side, at), scope),
			app.Select().Class("type").Title("type").
				OnChange(p.onField(side, at, func(list *[]form.Field, i int, v string) { setType(&(*list)[i], v) }), scope).
				Body(app.Range(form.Types).Slice(func(k int) app.UI {
					t := form.Types[k]
					return app.Option().Value(t).Text(t).Selected(t == f.Type)
				}), app.If(!slices.Contains(form.Types, f.Type), func() app.UI {
					return app.Option().Value(f.Type).Text(f.Type + " (unknown)").Selected(true)
				})),
			app.If(f.Type == "enum", func() app.UI { return p.members(side, at, key, f.Members) }),
			app.If(f.Type == "object", func() app.UI {
				return app.Button().Class("small add-child").Text("+ nested").Title("add a field inside").
					OnClick(p.add(func(*form.Doc) string {
						list := p.fieldList(side, at[:len(at)-1])
						if list == nil || i >= len(*list) {
							return ""
						}
						c := &(*list)[i].Children
						*c = append(*c, form.Field{Name: freeName(*c, "field"), Type: "string"})
						return fieldName(side, append(slices.Clone(at), len(*c)-1))
					}), scope)
			}),
			app.Button().Class("small up").Text("↑").Title("move up").Disabled(i == 0).
				OnClick(p.onField(side, at, func(list *[]form.Field, i int, _ string) {
					if i > 0 {
						(*list)[i-1], (*list)[i] = (*list)[i], (*list)[i-1]
					}
				}), scope),
			app.Button().Class("small danger remove").Text("×").Title("remove this field").
				OnClick(p.add(func(*form.Doc) string {
					list := p.fieldList(side, at[:len(at)-1])
					if list == nil || i >= len(*list) {
						return ""
					}
					*list = slices.Delete(*list, i, i+1)
					// The focus goes on: to the field that took its place, the one before, or
					// the button that adds one.
					switch {
					case i < len(*list):
						return fieldName(side, at)
					case i > 0:
						return fieldName(side, append(slices.Clone(at[:len(at)-1]), i-1))
					case len(at) == 1:
						return "#add-" + side
					}
					return fieldSelector(side, at[:len(at)-1]) + " .add-child"
				}), scope),
		),
		app.If(f.Type == "object" && len(f.Children) > 0, func() app.UI {
			return p.fieldTree(side, f.Children, at)
		}),
	)
}

// onRename renames the field at side/at as its name is typed; a name another field of its
// list has is not written (two keys of one name: the YAML would no longer parse, the form
// pause and the keys typed next be lost) but said on the input (names.go). An output
// field's weights are on its leaves: they follow it.
func (p *formPanel) onRename(side string, at []int) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		list := p.fieldList(side, at[:len(at)-1])
		i := at[len(at)-1]
		if list == nil || i >= len(*list) {
			return
		}
		v := value(ctx)
		taken := v != (*list)[i].Name && slices.ContainsFunc(*list, func(f form.Field) bool { return f.Name == v })
		if p.refused(ctx.JSSrc(), fieldKey(side, at), v, taken, "another field here") {
			return
		}
		(*list)[i].Name = v
		p.Owner.formChanged(ctx)
	}
}

// onNameLeft: leaving a name input that holds a name not written shows the field's name.
func (p *formPanel) onNameLeft(side string, at []int) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		if list := p.fieldList(side, at[:len(at)-1]); list != nil && at[len(at)-1] < len(*list) {
			p.left(ctx.JSSrc(), fieldKey(side, at), (*list)[at[len(at)-1]].Name)
		}
	}
}

// fieldKey names the field at side/at: "output.2.0".
func fieldKey(side string, at []int) string { return side + "." + strings.Join(intStrings(at), ".") }

// setType changes a field's type, giving an enum or object what it needs to be valid.
func setType(f *form.Field, t string) {
	f.Type = t
	if t == "enum" && len(f.Members) == 0 {
		f.Members = []string{"a", "b"}
	}
	if t != "enum" {
		f.Members = nil
	}
	if t == "object" && len(f.Children) == 0 {
		f.Children = []form.Field{{Name: "field", Type: "string"}}
	}
	if t != "object" {
		f.Children = nil
	}
}

// freeName is base, or base_2, base_3…: a name no field of the list has.
func freeName(list []form.Field, base string) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(list, func(f form.Field) bool { return f.Name == n })
	}
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		if n := base + "_" + strconv.Itoa(i); !taken(n) {
			return n
		}
	}
}

func intStrings(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Itoa(x)
	}
	return out
}
