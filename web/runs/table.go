package runs

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

// renderList is the table of the benchmark's runs, newest first.
func (p *Page) renderList() app.UI {
	bar := app.Div().Class("toolbar").Body(
		app.H2().Style("margin", "0").Text("Runs of this benchmark"),
		app.Span().Class("sep"),
		app.Span().Class("muted").Text("pick two completed runs to compare"),
		app.Button().ID("compare").Disabled(len(p.picks) != 2).
			Text("Compare ("+strconv.Itoa(len(p.picks))+"/2)").OnClick(p.onCompare),
		app.Button().ID("refresh-runs").Text("Refresh").OnClick(func(ctx app.Context, e app.Event) { p.loadRuns(ctx) }),
	)
	var body app.UI
	switch {
	case p.runs.Err != nil:
		body = app.P().ID("runs-error").Class("error").Text(ui.ErrText(p.runs.Err))
	case !p.runs.OK:
		body = app.P().Class("muted").Text("Loading runs…")
	case len(p.runs.Value) == 0:
		body = app.P().ID("no-runs").Class("muted").Text("No runs yet. Start one above: its progress shows here live.")
	default:
		rows := make([]app.UI, 0, len(p.runs.Value))
		sizes := datasetSizes(p.runs.Value)
		for _, r := range p.runs.Value {
			rows = append(rows, p.renderRow(r, sizes))
		}
		body = app.Table().ID("runs").Class("data").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Text(""), app.Th().Text("Run"), app.Th().Text("Status"), app.Th().Text("Score"),
				app.Th().Text("Examples"), app.Th().Text("Valid · invalid · errors"), app.Th().Text("AI-system"),
				app.Th().Text("Created"), app.Th().Text(""),
			)),
			app.TBody().Body(rows...),
		)
	}
	return app.Section().ID("runs-list").Class("panel").Body(bar, body)
}

// renderRow is one run of the list; the followed run shows its live figures. A partial
// run's score says so (sizes: datasetSizes).
func (p *Page) renderRow(r api.Run, sizes map[string]int) app.UI {
	score := ui.NoValue
	if rep := r.DecodeReport(); rep != nil {
		score = ui.ScorePtr(rep.BenchmarkScore)
	}
	l := p.followedRun(r.ID)
	if l != nil && l.Loaded {
		r = l.Record
		if l.Score != nil {
			score = ui.Score(*l.Score)
		}
	}
	counts := ui.NoValue
	if s := r.Summary; s != nil {
		counts = ui.Int(s.Valid) + " · " + ui.Int(s.InvalidOutputs) + " · " + ui.Int(s.ExecutionErrors)
	}
	examples := ui.Int(r.Done) + " / " + ui.Int(r.Total)
	if r.Total == 0 && api.Active(r.Status) {
		examples = ui.Int(r.Done) + " / " + ui.NoValue
	}
	class := "run"
	if l != nil {
		class += " live"
	}
	completed := r.Status == api.Completed
	status, statusText := ui.RunStatus(&r, r.Status)
	check := app.Input().Type("checkbox").Class("pick").DataSet("id", r.ID).
		Checked(slices.Contains(p.picks, r.ID)).Disabled(!completed).
		Title(map[bool]string{true: "compare this run", false: "only completed runs can be compared"}[completed]).
		OnChange(p.onPick, app.EventScope(r.ID))
	return app.Tr().Class(class).DataSet("id", r.ID).DataSet("status", r.Status).
		Title("Click to follow this run").OnClick(p.onRow, app.EventScope(r.ID)).Body(
		app.Td().Body(check),
		app.Td().Class("mono nowrap run-id").Title(r.ID).Text(ui.ShortID(r.ID)),
		app.Td().Class("run-status").Body(app.Span().Class("badge "+status).Text(statusText), waitingTag(r)),
		scoreCell(&r, score, partialTag(r, sizes, score != ui.NoValue)),
		app.Td().Class("run-examples").Text(examples),
		app.Td().Text(counts),
		app.Td().Class("run-system").Body(ui.SystemName(ui.RunSystem(&r), systemHash(r))),
		app.Td().Text(ui.Time(r.CreatedAt)),
		app.Td().Body(app.A().Href(ui.ResultsURL(r.ID, "")).Text("results")),
	)
}

// scoreCell is a run's Score column: a failed run's score struck out as not meaningful,
// beside why it failed.
func scoreCell(r *api.Run, score string, partial app.UI) app.UI {
	if ui.Failed(r) {
		return app.Td().Class("run-score").DataSet("meaningful", "no").Body(
			app.Span().Class("struck").Title(ui.NotMeaningful).Text(score), app.Text(" "),
			app.Span().Class("muted small").Title(ui.NotMeaningful).Text("not meaningful"), healthNote(r.Health))
	}
	return app.Td().Class("run-score").Body(app.Text(score), partial)
}

// healthNote says in a run's row that it failed as infrastructure (most examples execution
// errors), its most frequent error in full: its score is not the system's quality.
func healthNote(h *api.Health) app.UI {
	if h == nil || !h.Failed {
		return nil
	}
	return app.Div().Class("run-health notice error small").Title("the score is not meaningful").Text("failed: " + h.Sentence())
}

// systemHash is a run's system hash, "" for a run stored before Benchy recorded systems.
func systemHash(r api.Run) string {
	if r.System != nil {
		return r.System.Hash
	}
	return ""
}

// datasetSizes are the sizes of the datasets of runs, by digest, as their full completed
// runs counted them: what a partial run's "first N of M" takes M from.
func datasetSizes(runs []api.Run) map[string]int {
	sizes := map[string]int{}
	for _, r := range runs {
		if r.Status == api.Completed && r.DatasetDigest != "" && r.Summary != nil && live.Partial(r, 0) == "" {
			sizes[r.DatasetDigest] = max(sizes[r.DatasetDigest], r.Summary.Examples)
		}
	}
	return sizes
}

// partialTag labels the score of a run of only the first N examples, when a score shows.
func partialTag(r api.Run, sizes map[string]int, shown bool) app.UI {
	label := live.Partial(r, sizes[r.DatasetDigest])
	return app.If(shown && label != "", func() app.UI { return partialBadge(label) })
}

// partialBadge is the label of a partial run's score, "first N of M".
func partialBadge(label string) app.UI {
	return app.Span().Class("badge partial").Title("A partial run: only the " + label +
		" examples were evaluated (the Examples limit), so its score is not the benchmark's").Text(label)
}
