package editor

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/form"
)

// members edits an enum's members as chips: each member a chip with its remove button,
// then an input where Enter adds what was typed as one member. A member may hold a comma,
// so commas separate nothing; Backspace in the empty input removes the last chip.
func (p *formPanel) members(side string, at []int, key string, members []string) app.UI {
	// The chips have a span of their own, so that the input stays the same element (the
	// second child) as members come and go: it keeps the focus and what is being typed.
	return app.Div().Class("chips").Title("enum members").Body(
		app.Span().Class("chip-list").Body(app.Range(members).Slice(func(k int) app.UI {
			m := members[k]
			return app.Span().Class("chip").Body(
				app.Span().Class("chip-text").Text(m),
				app.Button().Class("chip-x").Text("×").Title("remove "+m).Aria("label", "remove "+m).
					OnClick(p.onField(side, at, func(list *[]form.Field, i int, _ string) {
						// By its text, not its place: a click that came before the page
						// showed an earlier removal still removes the chip clicked.
						if ms := (*list)[i].Members; slices.Contains(ms, m) {
							(*list)[i].Members = slices.DeleteFunc(slices.Clone(ms), func(x string) bool { return x == m })
						}
					}), app.EventScope(key+"/"+strconv.Itoa(k)+"/"+m)),
			)
		})),
		app.Input().Type("text").Class("members").Placeholder("+ member").
			Title("type a member and press Enter; commas are part of it").
			OnKeyDown(p.onMemberKey(side, at), app.EventScope(key)),
	)
}

// onMemberKey handles a key in an enum's member input: Enter adds the text typed (trimmed)
// unless it is empty or already a member, which the input then says; Backspace in an
// empty input removes the last member.
func (p *formPanel) onMemberKey(side string, at []int) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		in := ctx.JSSrc()
		text := in.Get("value").String()
		key := ev.Get("key").String()
		if key != "Enter" && !(key == "Backspace" && text == "") {
			in.Call("setCustomValidity", "")
			return
		}
		ev.PreventDefault()
		list := p.fieldList(side, at[:len(at)-1])
		i := at[len(at)-1]
		if list == nil || i >= len(*list) {
			return
		}
		f := &(*list)[i]
		switch {
		case key == "Backspace":
			if len(f.Members) == 0 {
				return
			}
			f.Members = slices.Clone(f.Members[:len(f.Members)-1])
		case strings.TrimSpace(text) == "":
			return
		case slices.Contains(f.Members, strings.TrimSpace(text)):
			in.Call("setCustomValidity", strings.TrimSpace(text)+" is a member already")
			in.Call("reportValidity")
			return
		default:
			f.Members = append(slices.Clone(f.Members), strings.TrimSpace(text))
			in.Set("value", "")
		}
		p.Owner.formChanged(ctx)
	}
}
