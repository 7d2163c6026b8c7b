package provider

import (
	"strings"

	"github.com/benchy-eval/benchy/ir"
)

// systemText is the template's system part for input.
func (t *Template) systemText(input map[string]any) string {
	if t.static {
		return t.text
	}
	var b strings.Builder
	for _, x := range t.system {
		if x.leaf == nil {
			b.WriteString(x.text)
		} else {
			b.WriteString(scalarText(valueAt(input, x.leaf.Path)))
		}
	}
	return b.String()
}

// userParts is the template's user part for input: text parts with the values filled in,
// cut at each artifact placeholder by the artifact's media part; a blank text part is left
// out. The artifacts hold at most MaxArtifactBytes, as with Render.
func (t *Template) userParts(input map[string]any) ([]Part, error) {
	parts := make([]Part, 0, 1)
	budget := int64(MaxArtifactBytes)
	var text strings.Builder
	flush := func() {
		if s := text.String(); strings.TrimSpace(s) != "" {
			parts = append(parts, Part{Kind: "text", Text: s})
		}
		text.Reset()
	}
	for _, x := range t.user {
		switch {
		case x.leaf == nil:
			text.WriteString(x.text)
		case !ir.IsArtifact(x.leaf.Field.Type):
			text.WriteString(scalarText(valueAt(input, x.leaf.Path)))
		default:
			media, err := mediaPart(*x.leaf, valueAt(input, x.leaf.Path), &budget)
			if err != nil {
				return nil, err
			}
			flush()
			parts = append(parts, media)
		}
	}
	flush()
	return parts, nil
}

// render is the task and the user message's parts for one input: without a template the
// prompt file as the system message and Render's parts; with one, the template's parts,
// and the task with its system part (a copy, when the system part has placeholders). A
// request of more than MaxRenderedBytes of text is refused before any of it is written.
func (a *modelAdapter) render(input map[string]any) (*Task, []Part, error) {
	if s := a.textSize(input); s.bytes > MaxRenderedBytes {
		return nil, nil, s.tooLarge()
	}
	t := a.tmpl
	if t == nil {
		parts, err := Render(a.task.Input, input)
		return a.task, parts, err
	}
	task := a.task
	if !t.static {
		copied := *a.task
		copied.Prompt = t.systemText(input)
		task = &copied
	}
	if !t.hasUser {
		parts, err := Render(a.task.Input, input)
		return task, parts, err
	}
	parts, err := t.userParts(input)
	return task, parts, err
}
