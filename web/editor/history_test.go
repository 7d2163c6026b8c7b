package editor

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// edit is one change of the text in a history test: the text after it, what made it, and
// how long after the previous edit it came.
type edit struct {
	text, kind string
	after      time.Duration
}

func play(edits []edit) *history {
	var h history
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, e := range edits {
		now = now.Add(e.after)
		h.record(e.text, e.kind, file{}, now)
	}
	return &h
}

// undoAll undoes until nothing is left and returns the texts shown, the current one first.
func undoAll(h *history) []string {
	out := []string{h.current()}
	for t, ok := h.undo(); ok; t, ok = h.undo() {
		out = append(out, t)
	}
	return out
}

func TestHistorySteps(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name  string
		edits []edit
		want  []string // what undo shows, from the current text back to the first
	}{
		{"typing within a second of the last key is one step",
			[]edit{{"a", "", 0}, {"ab", "yaml", 100 * ms}, {"abc", "yaml", 900 * ms}, {"abcd", "yaml", 900 * ms}},
			[]string{"abcd", "a"}},
		{"a pause of more than a second starts a new step",
			[]edit{{"a", "", 0}, {"ab", "yaml", 100 * ms}, {"abc", "yaml", 1500 * ms}},
			[]string{"abc", "ab", "a"}},
		{"typing 12 into one weight is one step",
			[]edit{{"w: 0", "", 0}, {"w: 1", "form:weight/a", 50 * ms}, {"w: 12", "form:weight/a", 50 * ms}},
			[]string{"w: 12", "w: 0"}},
		{"another control starts a new step",
			[]edit{{"0 0", "", 0}, {"1 0", "form:a", 50 * ms}, {"1 2", "form:b", 50 * ms}, {"1 23", "form:b", 50 * ms}},
			[]string{"1 23", "1 0", "0 0"}},
		{"the form after typing in the YAML is a new step, and typing after it too",
			[]edit{{"a", "", 0}, {"ab", "yaml", 50 * ms}, {"ab!", "form:x", 50 * ms}, {"ab!c", "yaml", 50 * ms}},
			[]string{"ab!c", "ab!", "ab", "a"}},
		{"a one-off change (open, template, suggestion) never joins a step",
			[]edit{{"a", "", 0}, {"b", "", 10 * ms}, {"c", "", 10 * ms}},
			[]string{"c", "b", "a"}},
		{"typing never joins the first text, so it can be undone",
			[]edit{{"a", "yaml", 0}, {"ab", "yaml", 10 * ms}},
			[]string{"ab", "a"}},
		{"the same text again is no step",
			[]edit{{"a", "", 0}, {"b", "form:x", 10 * ms}, {"b", "yaml", 10 * ms}, {"b", "", 10 * ms}},
			[]string{"b", "a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := undoAll(play(c.edits)); !slices.Equal(got, c.want) {
				t.Errorf("undo shows %q, want %q", got, c.want)
			}
		})
	}
}

func TestHistoryRedo(t *testing.T) {
	now := time.Now()
	h := play([]edit{{"a", "", 0}, {"b", "", 0}, {"c", "", 0}})
	if h.canRedo() {
		t.Error("redo before any undo")
	}
	for _, want := range []string{"b", "a"} {
		if got, ok := h.undo(); !ok || got != want {
			t.Fatalf("undo = %q, %v; want %q", got, ok, want)
		}
	}
	if _, ok := h.undo(); ok || h.canUndo() {
		t.Error("undo past the first text")
	}
	for _, want := range []string{"b", "c"} {
		if got, ok := h.redo(); !ok || got != want {
			t.Fatalf("redo = %q, %v; want %q", got, ok, want)
		}
	}
	if _, ok := h.redo(); ok {
		t.Error("redo past the last text")
	}

	// An undo, then typing: the typing does not join the step undone to, and the redo
	// branch is gone.
	h = play([]edit{{"a", "", 0}, {"ab", "yaml", 0}, {"ab!", "form:x", 0}})
	h.undo() // "ab", made by typing
	h.record("abc", "yaml", file{}, now)
	if h.canRedo() {
		t.Error("a new edit after undo left something to redo")
	}
	if got := undoAll(h); !slices.Equal(got, []string{"abc", "ab", "a"}) {
		t.Errorf("undo shows %q", got)
	}
	if h.bytes != len("a")+len("ab")+len("abc") {
		t.Errorf("bytes = %d after dropping the redo branch", h.bytes)
	}

	// Undo, then redo: the step redone to takes no more typing either.
	h = play([]edit{{"a", "", 0}, {"ab", "yaml", 0}})
	h.undo()
	h.redo()
	h.record("abc", "yaml", file{}, now)
	if got := undoAll(h); !slices.Equal(got, []string{"abc", "ab", "a"}) {
		t.Errorf("after undo and redo, undo shows %q", got)
	}
}

// TestHistoryBounds: the oldest steps go beyond maxSteps or maxBytes; the current one stays
// even when it alone is larger.
func TestHistoryBounds(t *testing.T) {
	var h history
	for i := range maxSteps + 50 {
		h.record(strings.Repeat("x", i+1), "", file{}, time.Time{})
	}
	if len(h.steps) != maxSteps || h.cur != maxSteps-1 {
		t.Fatalf("%d steps, current %d; want %d", len(h.steps), h.cur, maxSteps)
	}
	if got := len(h.steps[0].text); got != 51 {
		t.Errorf("the oldest step kept is %d bytes, want the 51st", got)
	}

	h = history{}
	big := strings.Repeat("y", maxBytes/3+1)
	for _, c := range "abcd" {
		h.record(string(c)+big, "", file{}, time.Time{})
	}
	if len(h.steps) != 2 || h.bytes > maxBytes || h.current()[0] != 'd' {
		t.Errorf("%d steps of %d bytes, current %q…; want the 2 newest within %d", len(h.steps), h.bytes, h.current()[:1], maxBytes)
	}
	huge := strings.Repeat("z", maxBytes+1)
	h.record(huge, "", file{}, time.Time{})
	if len(h.steps) != 1 || h.current() != huge || h.canUndo() {
		t.Errorf("a text over the cap: %d steps, want only it", len(h.steps))
	}
	total := 0
	for _, s := range h.steps {
		total += len(s.text)
	}
	if total != h.bytes {
		t.Errorf("bytes = %d, the texts hold %d", h.bytes, total)
	}
}

// TestHistoryFiles: undoing Open… or New brings back the file the text belongs to, as it
// was last known: a save (under its name or another) after the last edit included.
func TestHistoryFiles(t *testing.T) {
	var h history
	now := time.Now()
	a := file{path: "a.yaml", saved: "A", etag: `"1"`, etagPath: "a.yaml"}
	h.record("A", "", a, now)
	h.record("A!", "yaml", a, now)
	a.saved, a.etag = "A!", `"2"` // saved, no edit since
	h.refresh(a)                  // what leaveFile does before the switch
	h.startFile()
	b := file{path: "b.yaml", saved: "B", etag: `"7"`, etagPath: "b.yaml"}
	h.record("B", "", b, now)
	h.record("B?", "yaml", b, now)
	h.record("B?", "yaml", file{path: "c.yaml", saved: "B?", etag: `"9"`, etagPath: "c.yaml"}, now) // saved as c.yaml

	for _, want := range []struct {
		text string
		f    file
	}{
		{"B", file{path: "c.yaml", saved: "B?", etag: `"9"`, etagPath: "c.yaml"}},
		{"A!", a},
		{"A", a},
	} {
		text, _ := h.undo()
		if got := h.fileOf(); text != want.text || got != want.f {
			t.Errorf("undo to %q of %+v, want %q of %+v", text, got, want.text, want.f)
		}
	}

	// The same text in another file is a step: undoing it brings back the first file.
	h = history{}
	h.record("X", "", a, now)
	h.startFile()
	h.record("X", "", b, now)
	if _, ok := h.undo(); !ok || h.fileOf() != a {
		t.Errorf("opening a file of the same text: undo gives %+v, want %+v", h.fileOf(), a)
	}
}
