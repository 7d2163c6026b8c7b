package editor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/form"
)

// locks are the parts of the text the form leaves alone while the YAML has a problem there
// (form.Doc.Locked), each with its reason: their controls are disabled, so that nobody types
// into a control whose edit would not be written.
type locks map[string]string

func lockSet(list []form.Lock) locks {
	l := locks{}
	for _, lock := range list {
		l[lock.Part] = lock.Reason
	}
	return l
}

// part wraps the controls of the parts named (a control may write several: the task writes
// the language too) in a fieldset, disabled with the first reason while any of them is
// locked. The fieldset is there either way, so that a lock only toggles an attribute.
func (l locks) part(parts []string, body ...app.UI) app.UI {
	reason := ""
	for _, p := range parts {
		if r, ok := l[p]; ok && reason == "" {
			reason = p + ": " + r
		}
	}
	fs := app.FieldSet().DataSet("part", parts[0]).Disabled(reason != "").Body(body...)
	if reason == "" {
		return fs.Class("part")
	}
	return fs.Class("part locked").Title("locked until the YAML is fixed: " + reason)
}

// renderLocks says which parts of the form do not write to the YAML while it has a
// problem there, and why: an edit of them would drop or reset what the text holds.
func renderLocks(locks []form.Lock) app.UI {
	if len(locks) == 0 {
		return nil
	}
	items := make([]app.UI, len(locks))
	for i, l := range locks {
		items[i] = app.Li().Body(app.Code().Text(l.Part), app.Text(": "+l.Reason))
	}
	return app.Div().ID("form-locked").Class("notice").Body(
		app.Text("Until the YAML is fixed, the form leaves these parts of it as they are (their controls are greyed out):"), app.Ul().Body(items...))
}
