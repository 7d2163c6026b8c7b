package web

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/form"
)

// fieldTree renders a list of program fields, each editable, removable and nestable.
func (e *Editor) fieldTree(side string, list *[]form.Field, at []int) app.UI {
	id := ""
	if at == nil {
		id = side + "-fields"
	}
	return app.Ul().ID(id).Class("fieldtree").Body(
		app.Range(*list).Slice(func(i int) app.UI {
			return e.fieldRow(side, list, append(slices.Clone(at), i))
		}),
	)
}

func (e *Editor) fieldRow(side string, list *[]form.Field, at []int) app.UI {
	i := at[len(at)-1]
	f := &(*list)[i]
	return app.Li().Body(
		app.Div().Class("field").DataSet("field", side+"."+strings.Join(intStrings(at), ".")).Body(
			app.Input().Class("name").Type("text").Value(f.Name).Placeholder("name").Title("field name").
				OnInput(func(ctx app.Context, ev app.Event) {
					f.Name = value(ctx)
					e.formChanged(ctx)
				}),
			app.Select().Class("type").Title("type").OnChange(func(ctx app.Context, ev app.Event) {
				setType(f, value(ctx))
				e.formChanged(ctx)
			}).Body(app.Range(form.Types).Slice(func(k int) app.UI {
				t := form.Types[k]
				return app.Option().Value(t).Text(t).Selected(t == f.Type)
			}), app.If(!slices.Contains(form.Types, f.Type), func() app.UI {
				return app.Option().Value(f.Type).Text(f.Type + " (unknown)").Selected(true)
			})),
			app.If(f.Type == "enum", func() app.UI {
				return app.Input().Class("members").Type("text").Value(strings.Join(f.Members, ", ")).
					Placeholder("a, b, c").Title("enum members, separated by commas").
					OnChange(func(ctx app.Context, ev app.Event) {
						f.Members = splitMembers(value(ctx))
						e.formChanged(ctx)
					})
			}),
			app.If(f.Type == "object", func() app.UI {
				return app.Button().Class("small add-child").Text("+ nested").Title("add a field inside").
					OnClick(func(ctx app.Context, ev app.Event) {
						f.Children = append(f.Children, form.Field{Name: freeName(f.Children, "field"), Type: "string"})
						e.formChanged(ctx)
					})
			}),
			app.Button().Class("small up").Text("↑").Title("move up").Disabled(i == 0).
				OnClick(func(ctx app.Context, ev app.Event) {
					(*list)[i-1], (*list)[i] = (*list)[i], (*list)[i-1]
					e.formChanged(ctx)
				}),
			app.Button().Class("small danger remove").Text("×").Title("remove this field").
				OnClick(func(ctx app.Context, ev app.Event) {
					*list = slices.Delete(*list, i, i+1)
					e.formChanged(ctx)
				}),
		),
		app.If(f.Type == "object" && len(f.Children) > 0, func() app.UI {
			return e.fieldTree(side, &f.Children, at)
		}),
	)
}

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

func splitMembers(s string) []string {
	var out []string
	for _, m := range strings.Split(s, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
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
