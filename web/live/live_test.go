package live

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

func TestFormatPace(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Rate(0), ui.NoValue},
		{Rate(3.14159), "3.14"},
		{Rate(42.42), "42.4"},
		{Rate(1234.5), "1234"},
		{ETA(50, 100, 10), "about 5 s left"},
		{ETA(100, 100, 10), ""},
		{ETA(1, 100, 0), ""},
		{Counts(&api.Summary{Valid: 7, InvalidOutputs: 1, ExecutionErrors: 2}), "7 valid · 1 invalid output · 2 execution errors"},
		{Counts(&api.Summary{Valid: 0, InvalidOutputs: 2, ExecutionErrors: 1}), "0 valid · 2 invalid outputs · 1 execution error"},
		{Counts(nil), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if DonePct(5, 0) != 0 || DonePct(1, 4) != 25 || DonePct(9, 4) != 100 {
		t.Error("DonePct")
	}
}

// TestLabel: a card names the run's AI-system by its label, else by its binding (a run
// stored before Benchy recorded systems).
func TestLabel(t *testing.T) {
	for _, c := range []struct {
		r    Run
		want string
	}{
		{Run{Record: api.Run{System: &api.System{Label: "local/llama3.2"}, Binding: "local"}}, "local/llama3.2"},
		{Run{Record: api.Run{Binding: "langdetect"}}, "langdetect"},
		{Run{}, ""},
	} {
		if got := c.r.Label(); got != c.want {
			t.Errorf("Label() = %q, want %q", got, c.want)
		}
	}
	if !(&Run{}).Active() || (&Run{Loaded: true, Record: api.Run{Status: api.Completed}}).Active() {
		t.Error("Active")
	}
}

// TestCardsRender: cards of runs in every state render.
func TestCardsRender(t *testing.T) {
	score := 0.5
	runs := []*Run{
		{ID: "01A"},
		{ID: "01B", Loaded: true, Record: api.Run{Status: api.Running, Done: 3, Total: 10}},
		{ID: "01C", Loaded: true, Record: api.Run{Status: api.Completed, Summary: &api.Summary{}}, Score: &score, CI: &api.Interval{Level: 0.95}},
		{ID: "01D", Loaded: true, Record: api.Run{Status: api.Aborted}},
		{ID: "01E", Loaded: true, Record: api.Run{Status: api.Cancelled}},
	}
	if Cards("x", runs, func(string) app.EventHandler { return func(app.Context, app.Event) {} }) == nil || Cards("y", nil, nil) == nil {
		t.Error("no cards")
	}
}

// TestPhase: what a card says of a run before its first result. A run that started at
// once showed "queued · Waiting for a free slot" and "0 / — examples" until then.
func TestPhase(t *testing.T) {
	for _, c := range []struct {
		r            Run
		status, note string
	}{
		{Run{}, "loading", ""},
		{Run{Loaded: true, Record: api.Run{Status: api.Queued}}, "queued", "Waiting for a free slot"},
		{Run{Loaded: true, Record: api.Run{Status: api.Running}}, "starting", "Validating the dataset"},
		{Run{Loaded: true, Record: api.Run{Status: api.Running, Total: 60}}, "running", ""},
		{Run{Loaded: true, Record: api.Run{Status: api.Completed, Total: 60, Done: 60}}, "completed", ""},
	} {
		if status, note := c.r.Phase(); status != c.status || note != c.note {
			t.Errorf("%+v: %q %q, want %q %q", c.r.Record, status, note, c.status, c.note)
		}
	}
}

// TestAdvance: a fresher read of the record moves a run heard queued on to running; it
// never moves a run back, nor ends one (the stream's done event does).
func TestAdvance(t *testing.T) {
	rec := func(status string, done, total int) api.Run { return api.Run{Status: status, Done: done, Total: total} }
	for _, c := range []struct {
		name      string
		cur, read api.Run
		want      api.Run
	}{
		{"queued, the record says running: running", rec(api.Queued, 0, 0), rec(api.Running, 0, 0), rec(api.Running, 0, 0)},
		{"the counts only grow", rec(api.Queued, 3, 60), rec(api.Running, 1, 60), rec(api.Running, 3, 60)},
		{"still queued", rec(api.Queued, 0, 0), rec(api.Queued, 0, 0), rec(api.Queued, 0, 0)},
		{"running, an older read says queued: running", rec(api.Running, 5, 60), rec(api.Queued, 0, 0), rec(api.Running, 5, 60)},
		{"the end is the stream's", rec(api.Queued, 0, 0), rec(api.Completed, 60, 60), rec(api.Queued, 0, 0)},
	} {
		got := advance(c.cur, c.read)
		if got.Status != c.want.Status || got.Done != c.want.Done || got.Total != c.want.Total {
			t.Errorf("%s: %s %d/%d, want %s %d/%d", c.name, got.Status, got.Done, got.Total, c.want.Status, c.want.Done, c.want.Total)
		}
	}
}

// TestPartial: a run of the first N examples is labelled wherever its score shows; a
// limit above what the run took, or as large as the dataset, took every example.
func TestPartial(t *testing.T) {
	done := func(limit, examples int) api.Run {
		return api.Run{Status: api.Completed, Options: api.Options{Limit: limit}, Total: examples, Summary: &api.Summary{Examples: examples}}
	}
	running := api.Run{Status: api.Running, Options: api.Options{Limit: 5}, Total: 5, Summary: &api.Summary{Examples: 2}}
	for _, c := range []struct {
		name string
		r    api.Run
		of   int
		want string
	}{
		{"no limit", done(0, 60), 60, ""},
		{"the first 5, the dataset's size known", done(5, 5), 60, "first 5 of 60"},
		{"the first 5, the size unknown", done(5, 5), 0, "first 5"},
		{"a limit above the dataset's size", done(1000, 60), 0, ""},
		{"a limit as large as the dataset", done(60, 60), 60, ""},
		{"running: its total is the limit", running, 0, "first 5"},
		{"no summary yet", api.Run{Status: api.Queued, Options: api.Options{Limit: 5}}, 0, ""},
	} {
		if got := Partial(c.r, c.of); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
