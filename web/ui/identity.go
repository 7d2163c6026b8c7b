package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// How the pages name the identities of a run (the README's "benchmark vs AI-system"
// table): each hash shows its start beside a few words of what it names, the whole value
// and the longer sentence in its title, so that "44b7c89dce6a" never stands alone.

// An Identity is a kind of hash a run records.
type Identity struct {
	Name  string // the visible words: "benchmark hash"
	Means string // what it names, for the title
}

// The identities a page shows.
var (
	BenchmarkHash = Identity{"benchmark hash", "program, scoring and data path, without the AI-system: the same for every AI-system that takes the benchmark"}
	DatasetDigest = Identity{"dataset digest", "the JSONL bytes and every artifact's: one changed byte anywhere makes another exam"}
	SystemHash    = Identity{"system hash", "the AI-system as run: its definition, a model's prompt, and its binding's command or endpoint"}
	IRHash        = Identity{"IR hash", "the whole compiled benchmark file, its AI-system included"}
)

// Title is the identity's tooltip for value: what it names, then the whole value.
func (k Identity) Title(value string) string {
	return k.Name + ": " + k.Means + "\n" + value
}

// Show is value labelled as identity k: "benchmark hash 44b7c89dce6a", the code element
// with id (when not "") holding the short form; "not recorded" for a run stored before
// Benchy recorded it.
func (k Identity) Show(id, value string) app.UI { return k.ShowOr(id, value, "not recorded") }

// ShowOr is Show, with none in place of a value that is "".
func (k Identity) ShowOr(id, value, none string) app.UI {
	var code app.UI
	if value == "" {
		s := app.Span().Class("muted").Title(k.Name + ": " + k.Means).Text(none)
		if id != "" {
			s = s.ID(id)
		}
		code = s
	} else {
		c := app.Code().Class("hash-short").Title(k.Title(value)).Text(ShortHash(value))
		if id != "" {
			c = c.ID(id)
		}
		code = c
	}
	return app.Span().Class("ident nowrap").Body(app.Span().Class("ident-name").Title(k.Means).Text(k.Name+" "), code)
}

// SystemName is an AI-system's label in a table or a heading, one line however long: what
// does not fit ends in "…" and the title holds the whole, with the system hash when known.
func SystemName(label, hash string) app.UI {
	title := label
	if hash != "" {
		title += "\n" + SystemHash.Title(hash)
	}
	return app.Span().Class("mono clip system-name").Title(title).Text(label)
}

// SystemLabel is an AI-system's label as runs record it (engine.Label's rule): its id, or
// provider/model.
func SystemLabel(s *api.AISystem) string {
	if s.Type == "model" {
		return s.Provider + "/" + s.Model
	}
	return s.ID
}

// RunSystem names a run's AI-system as every page does: its label (the external id, or
// provider/model), or its binding for a run stored before Benchy recorded systems.
func RunSystem(r *api.Run) string {
	if r.System != nil && r.System.Label != "" {
		return r.System.Label
	}
	return r.Binding
}

// kitCSS is the kit's own layout beside benchy.css: text that must stay on one line (ids,
// intervals, numbers), labels clipped to a width, the identities' labels.
const kitCSS = `
.struck { color: #9aa3ad; text-decoration: line-through; }
.nowrap, .nowrap.mono { white-space: nowrap; word-break: normal; }
.clip { display: inline-block; max-width: var(--clip, 18em); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; word-break: normal; vertical-align: bottom; }
.ident .ident-name { color: var(--muted); }
.ident label.ident-name { display: inline; margin: 0; font-size: inherit; }
.ident code.hash-short { font: 12px var(--mono); }
th[title] { text-decoration: underline dotted; text-underline-offset: 3px; cursor: help; }
`
