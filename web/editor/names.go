package editor

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// A name typed into the form (a field's, a parameter's key) that another entry of its list
// has is not written: two keys of one name would make the YAML stop parsing and the form
// pause, losing the keys typed next. It is kept in formPanel.typed, by the entry's key, and
// shown as typed (a render of an earlier key must not put the old name back under the
// cursor) until the name differs or the input is left.

// refused handles name v typed into input in for the entry key: when taken, it is kept and
// said on the input ("<whose> is named v") and refused is true; otherwise what the input
// said goes, and the caller writes v.
func (p *formPanel) refused(in app.Value, key, v string, taken bool, whose string) bool {
	if !taken {
		delete(p.typed, key)
		in.Call("setCustomValidity", "")
		return false
	}
	if p.typed == nil {
		p.typed = map[string]string{}
	}
	p.typed[key] = v
	in.Call("setCustomValidity", whose+" is named "+v+": not written until the name differs")
	in.Call("reportValidity")
	return true
}

// left is leaving input in of entry key: a name not written there gives way to the entry's
// name, which the input shows again.
func (p *formPanel) left(in app.Value, key, name string) {
	if _, ok := p.typed[key]; !ok {
		return
	}
	delete(p.typed, key)
	in.Call("setCustomValidity", "")
	in.Set("value", name) // go-app sets a value only when it changes
}

// shownName is what the input of entry key shows: the name typed, while it is not
// written, else the entry's name.
func (p *formPanel) shownName(key, name string) string {
	if t, ok := p.typed[key]; ok {
		return t
	}
	return name
}
