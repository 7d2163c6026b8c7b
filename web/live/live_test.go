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
		{Counts(&api.Summary{Valid: 7, InvalidOutputs: 1, ExecutionErrors: 2}), "7 valid · 1 invalid output · 2 execution error"},
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
