package editor

import (
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/diag"
)

// gutter is the YAML's line numbers, with a marker on each line a diagnostic names:
// diagnostics cite line:column, so the text shows lines. It is a component of its own that
// holds only the line count and the marked lines, so a keystroke that changes neither
// renders nothing here, and it never holds the text itself.
type gutter struct {
	app.Compo
	Owner cursor
	Lines int
	Marks []mark
}

// cursor is what a marker's click needs of the editor: to put the cursor at a diagnostic.
type cursor interface{ goTo(line, col int) }

// mark is one marked line: where its first diagnostic is, and every diagnostic of the line
// as its title (code: message), since the marker has no room for words.
type mark struct {
	Line, Column int
	Title        string
}

// gutterCSS lays the gutter beside the textarea, in the textarea's font and line height
// (13px/1.5, 4px padding and 1px border above the first line), so that number n stands
// level with line n. The numbers are out of the flow (position: absolute) so that the
// textarea, not the numbers, sets the height; the gutter's width comes from the digits.
const gutterCSS = `
.yaml-edit { display: flex; align-items: stretch; }
.yaml-edit textarea.yaml { flex: 1; min-width: 0; width: auto; border-top-left-radius: 0; border-bottom-left-radius: 0; }
.gutter { flex: none; position: relative; overflow: hidden; font: 13px/1.5 var(--mono); background: #f3f5f8; border: 1px solid var(--line); border-right: none; border-radius: 4px 0 0 4px; user-select: none; }
.gutter-body { position: absolute; top: 0; left: 0; right: 0; padding: 4px 6px 80px 0; color: var(--muted); text-align: right; }
.gutter-body pre { margin: 0; font: inherit; }
.gutter-mark { position: absolute; left: 4px; width: 9px; height: 9px; margin-top: 5px; border-radius: 50%; background: var(--bad); cursor: pointer; }
`

// marks gives the marked lines of ds, in line order; a diagnostic of the whole file
// (line 0) marks none.
func marks(ds diag.List) []mark {
	byLine := map[int]*mark{}
	for _, d := range ds {
		if d.Line <= 0 {
			continue
		}
		title := string(d.Code) + ": " + d.Message
		if m := byLine[d.Line]; m != nil {
			m.Title += "\n" + title
			continue
		}
		byLine[d.Line] = &mark{Line: d.Line, Column: max(1, d.Column), Title: title}
	}
	out := make([]mark, 0, len(byLine))
	for _, m := range byLine {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// lineCount is how many lines the textarea shows for s: a final newline starts a last,
// empty line.
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

// numbers is "1\n2\n…\nn": one text for all the numbers, cheap to render.
func numbers(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

func (g *gutter) Render() app.UI {
	width := "calc(" + strconv.Itoa(len(strconv.Itoa(g.Lines))) + "ch + 22px)"
	return app.Div().ID("yaml-gutter").Class("gutter").Aria("hidden", "true").Style("width", width).Body(
		app.Div().Class("gutter-body").Body(
			app.Pre().ID("yaml-lines").Text(numbers(g.Lines)),
			app.Range(g.Marks).Slice(func(i int) app.UI {
				m := g.Marks[i]
				return app.Span().Class("gutter-mark").
					DataSet("line", m.Line).DataSet("column", m.Column).
					Style("top", "calc(4px + "+strconv.Itoa(m.Line-1)+" * 1.5em)").
					Title(m.Title).OnClick(g.onMark)
			}),
		),
	)
}

// OnUpdate keeps the numbers level with the text after they change: the textarea may have
// scrolled (typing at the bottom) before the gutter had the lines to follow it.
func (g *gutter) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { syncGutter() }) }

// onMark puts the cursor at the marked line's first diagnostic. It reads the position from
// the element, which every render updates (go-app keeps a handler's first closure).
func (g *gutter) onMark(ctx app.Context, ev app.Event) {
	ds := ctx.JSSrc().Get("dataset")
	line, _ := strconv.Atoi(ds.Get("line").String())
	col, _ := strconv.Atoi(ds.Get("column").String())
	ctx.PreventUpdate()
	g.Owner.goTo(line, col)
}

// onYAMLScroll scrolls the gutter with the text, without rendering anything.
func (e *Page) onYAMLScroll(ctx app.Context, ev app.Event) {
	ctx.PreventUpdate()
	syncGutter()
}

// syncGutter gives the gutter the textarea's scrollTop.
func syncGutter() {
	doc := app.Window().Get("document")
	y, g := doc.Call("getElementById", "yaml"), doc.Call("getElementById", "yaml-gutter")
	if y.Truthy() && g.Truthy() {
		g.Set("scrollTop", y.Get("scrollTop"))
	}
}
