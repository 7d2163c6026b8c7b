package leaderboard

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui"
)

func (p *Page) Render() app.UI {
	body := []app.UI{app.Style().Text(boardCSS)}
	if p.bench == "" {
		body = append(body, app.H1().Text("Leaderboards"), p.renderList())
	} else {
		body = append(body, app.H1().Text("Leaderboard"), p.renderBoard())
	}
	return ui.Shell("/leaderboard", app.Div().ID("leaderboard-page").DataSet("ready", ui.ReadyFlag(p.ready())).Body(body...))
}

// renderBoard is the shown benchmark's board, or why there is none.
func (p *Page) renderBoard() app.UI {
	b := &p.board.Value
	var main app.UI
	switch {
	case p.board.Err != nil && !p.board.OK:
		main = app.Div().ID("board-error").Class("notice error").Body(
			app.If(ui.ErrCode(p.board.Err) != "", func() app.UI { return app.Code().Text(ui.ErrCode(p.board.Err) + ": ") }),
			app.Text(ui.ErrText(p.board.Err)),
		)
	case !p.board.OK:
		main = app.P().Class("muted").Text("Reading the leaderboard…")
	case len(b.Entries) == 0:
		main = p.renderEmpty(b)
	default:
		main = app.Div().Body(p.renderRanking(b), renderHeatmap(b))
	}
	return app.Div().Body(
		p.renderHead(),
		app.If(len(p.launched) > 0, func() app.UI {
			return app.Section().ID("board-launch").Class("panel").Style("margin-bottom", "12px").Body(
				app.H2().Text("Runs started from this board"),
				app.If(len(p.notRun) > 0, func() app.UI { return renderNotRun(p.notRun) }),
				live.Cards("launch-cards", p.launched, nil),
			)
		}),
		main,
	)
}

// renderHead names the benchmark and the dataset of the board, and links its other pages.
func (p *Page) renderHead() app.UI {
	b := &p.board.Value
	meta := []app.UI{}
	if p.board.OK {
		meta = append(meta, ui.BenchmarkHash.Show("board-benchmark-hash", b.BenchmarkHash))
		switch {
		case len(b.Datasets) > 1:
			opts := make([]app.UI, 0, len(b.Datasets))
			for _, d := range b.Datasets {
				opts = append(opts, app.Option().Value(d.Digest).Selected(d.Digest == b.DatasetDigest).Text(datasetOption(d)))
			}
			meta = append(meta, app.Span().Class("ident nowrap").Body(
				app.Label().For("dataset").Class("ident-name").Title(ui.DatasetDigest.Name+": "+ui.DatasetDigest.Means).Text("dataset "),
				app.Select().ID("dataset").Title("The versions of the dataset this benchmark's runs took, by digest, with how many AI-systems "+
					"completed a run of each (runs of the first N examples included; the board ranks each system's latest full run)").
					Body(opts...).OnChange(p.onDataset),
			))
		case b.DatasetDigest != "":
			meta = append(meta, ui.DatasetDigest.Show("board-dataset", b.DatasetDigest))
		}
	}
	links := app.Span().Class("row").Body(
		app.A().ID("board-grid-link").Class("button").Href(ui.GridURL(p.bench, p.dataset, "", "")).
			Title("Each example with every system's prediction side by side").Text("Examples side by side"),
		app.A().ID("board-runs-link").Class("button").Href(ui.RunsURL(p.bench, "")).Text("Runs"),
		app.If(p.board.OK && len(b.Entries) > 0, func() app.UI {
			return ui.ReportButton("board-report", "The self-contained HTML report of the ranked runs with this leaderboard, the file benchy report writes: opens offline", reportRuns(b))
		}),
		app.Button().ID("board-refresh").Text("Refresh").OnClick(p.onRefresh),
	)
	head := []app.UI{
		app.Div().Class("toolbar").Body(app.H2().Class("mono").Text(p.bench), app.Span().Class("sep"), links),
		app.Div().Class("row muted small board-meta").Body(meta...),
	}
	if p.board.OK && b.DatasetNote != "" {
		head = append(head, app.P().ID("dataset-note").Class("notice").Text(b.DatasetNote))
	}
	if p.board.OK && b.Unrecorded > 0 {
		head = append(head, app.P().ID("unrecorded").Class("muted small").Text(
			ui.Plural(b.Unrecorded, "run")+" from before Benchy recorded datasets "+map[bool]string{true: "is", false: "are"}[b.Unrecorded == 1]+
				" not shown: which exam they took is unknown, so they cannot be ranked with these."))
	}
	if p.board.OK && len(b.NotRanked) > 0 {
		items := make([]app.UI, 0, len(b.NotRanked))
		for _, n := range b.NotRanked {
			items = append(items, app.Li().Body(
				app.Span().Class("mono").Text(n.System), app.Text(" ("),
				app.A().Class("mono").Href(ui.ResultsURL(n.Run, "execution_error")).Title("its results: why each example failed").Text("run "+ui.ShortID(n.Run)),
				app.Text("): "+n.Reason),
			))
		}
		head = append(head, app.Div().ID("not-ranked").Class("notice").Body(
			app.Text("Not ranked:"), app.Ul().Body(items...)))
	}
	return app.Section().ID("board-head").Class("panel").Style("margin-bottom", "12px").Body(head...)
}

// maxReportRuns is how many runs the server puts in one report (server/report.go).
const maxReportRuns = 50

// reportRuns are the runs of the board's report: each ranked system's, in rank order, the
// first maxReportRuns of them.
func reportRuns(b *api.Leaderboard) []string {
	ids := make([]string, 0, min(len(b.Entries), maxReportRuns))
	for _, e := range b.Entries[:min(len(b.Entries), maxReportRuns)] {
		ids = append(ids, e.Run)
	}
	return ids
}

// datasetOption is a dataset's line in the select: its digest's start and its number of
// systems. The count is of systems with any completed run of the dataset, runs of the first
// N examples included, which the board does not rank: "systems ran", not "ranked".
func datasetOption(d api.LeaderboardDataset) string {
	return ui.ShortHash(d.Digest) + " · " + ui.Plural(d.Systems, "system") + " ran"
}

// renderList lists the workspace's benchmarks, the files of one benchmark together: each
// file links its leaderboard, which is the same for all of them.
func (p *Page) renderList() app.UI {
	switch {
	case p.benches.Err != nil:
		return app.Div().Class("notice error").Text(ui.ErrText(p.benches.Err))
	case !p.benches.OK:
		return app.P().Class("muted").Text("Loading the workspace's benchmarks…")
	case len(p.benches.Value) == 0:
		return app.Div().Class("notice").Body(app.Text("No benchmarks in this workspace yet. "), app.A().Href("/").Text("Write one in the editor"), app.Text("."))
	}
	var order []string
	groups := map[string][]api.Benchmark{}
	for _, b := range p.benches.Value {
		key := b.BenchmarkHash
		if key == "" {
			key = "file:" + b.Path // invalid, or a server without the hash: alone
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], b)
	}
	rows := make([]app.UI, 0, len(order))
	for _, key := range order {
		files := groups[key]
		first := files[0]
		links := make([]app.UI, 0, len(files)*2)
		for i, f := range files {
			if i > 0 {
				links = append(links, app.Text(" · "))
			}
			links = append(links, app.A().Class("mono board-link").Href(ui.LeaderboardURL(f.Path, "")).Text(f.Path))
		}
		task := first.Task
		if !first.Valid {
			task = "invalid: " + ui.Plural(first.Diagnostics, "problem")
		}
		rows = append(rows, app.Tr().Class("board-row").DataSet("files", len(files)).Body(
			app.Td().Body(links...),
			app.Td().Class("muted").Text(task),
			app.Td().Class("mono").Text(strconv.Itoa(len(files))),
			app.Td().Class("mono nowrap").Title(ui.BenchmarkHash.Title(first.BenchmarkHash)).Text(ui.ShortHash(first.BenchmarkHash)),
		))
	}
	return app.Section().ID("board-list").Class("panel").Body(
		app.P().Class("muted").Text("A leaderboard ranks every AI-system's latest completed run of one benchmark on one dataset. "+
			"Files that differ only in their ai-system: are one benchmark, and share one leaderboard."),
		app.Table().Class("data").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("Benchmark files"), app.Th().Text("Task"), app.Th().Text("Files"),
				app.Th().Title(ui.BenchmarkHash.Name+": "+ui.BenchmarkHash.Means).Text("Benchmark hash"))),
			app.TBody().Body(rows...),
		),
	)
}
