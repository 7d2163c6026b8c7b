package store

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// TestClip: a value within MaxShown is itself; a longer one, or one of which only the start
// was read, is a JSON string of at most MaxShown bytes of its start, never inside a
// character, and a marker saying how long it is.
func TestClip(t *testing.T) {
	long := `"` + strings.Repeat("é", MaxShown) + `"`
	tests := []struct {
		name    string
		raw     string
		size    int
		clipped bool
		marker  string
	}{
		{"short", `{"a":1}`, 7, false, ""},
		{"exactly the bound", `"` + strings.Repeat("a", MaxShown-2) + `"`, MaxShown, false, ""},
		{"the start of a longer value", long[:MaxShown+1], len(long), true, "[clipped: 32770 bytes of JSON in all; the first 16383 shown]"},
		{"only its start was read", long[:1000], -1, true, "[clipped: over 1000 bytes of JSON; the first 999 shown]"},
	}
	for _, tt := range tests {
		got, clipped := Clip([]byte(tt.raw), tt.size)
		if clipped != tt.clipped {
			t.Errorf("%s: clipped %v", tt.name, clipped)
		}
		if !clipped {
			if string(got) != tt.raw {
				t.Errorf("%s: %.40s, want it as it was", tt.name, got)
			}
			continue
		}
		var text string
		if err := json.Unmarshal(got, &text); err != nil || !strings.HasSuffix(text, tt.marker) || !strings.HasPrefix(text, `"éé`) ||
			strings.ContainsRune(text, '\uFFFD') || len(text) > MaxShown+100 {
			t.Errorf("%s: %d bytes, %v: …%s", tt.name, len(text), err, text[max(0, len(text)-80):])
		}
	}
	for _, text := range []string{"€€€€", "a€€€", "aa€€", "aé😀"} {
		for n := range len(text) + 1 {
			if got := cutUTF8([]byte(text), n); !strings.HasPrefix(text, string(got)) || !utf8.Valid(got) || len(got) < n-3 {
				t.Errorf("cutUTF8(%q, %d) = %q", text, n, got)
			}
		}
	}
	if s, clipped := ClipText(strings.Repeat("k", 3*MaxShown), 3*MaxShown); !clipped || !strings.HasSuffix(s, "… [clipped: 49152 bytes in all; the first 16384 shown]") {
		t.Errorf("ClipText: …%s", s[len(s)-80:])
	}
}

// TestClipPath: an error's path stays a list of strings: whole when it fits, else the
// elements its start holds and the start of the one cut, ending in the marker, whatever
// escape the cut fell into.
func TestClipPath(t *testing.T) {
	key := strings.Repeat(`k\"`, MaxShown) // a hostile key, with escapes to cut into
	whole := `["items","` + key + `","x"]`
	for cut := MaxShown - 3; cut <= MaxShown; cut++ {
		got, clipped := clipPath([]byte(whole[:cut]), len(whole), MaxShown)
		if !clipped || len(got) != 2 || got[0] != "items" || !strings.HasPrefix(got[1], `k"k"`) ||
			!strings.HasSuffix(got[1], "… [clipped: the path is "+itoa(len(whole))+" bytes of JSON; the first "+itoa(cut)+" shown]") {
			t.Errorf("cut at %d: %d elements, clipped %v: %.20q…", cut, len(got), clipped, got)
		}
	}
	if got, clipped := clipPath([]byte(`["a","b"]`), 9, MaxShown); clipped || !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("a short path: %q, clipped %v", got, clipped)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestPageClipped: a page, the grid's cells and a comparison's reading show a result with a
// 4 MiB prediction and an extra_field error naming a 4 MiB key as their starts, clipped,
// and never hold them: a page of ten of them allocates well under one of them.
func TestPageClipped(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	key := strings.Repeat("k", 4<<20)
	w := s.ResultWriter(r.ID)
	for i := range 10 {
		if err := w.Add(engine.ExampleResult{Index: i, Status: engine.StatusInvalidOutput,
			Prediction: map[string]any{"label": "x", key: 1}, FieldScores: []engine.FieldScore{},
			Error: &engine.ResultError{Code: diag.ExtraField, Path: []string{key}, Message: "unexpected field " + key}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	check := func(what string, sh Shown) {
		t.Helper()
		if !sh.Clipped || len(sh.Prediction) > MaxShown+200 || sh.Error == nil || sh.Error.Code != diag.ExtraField ||
			len(sh.Error.Path) != 1 || len(sh.Error.Path[0]) > MaxShown+200 || len(sh.Error.Message) > MaxShown+200 ||
			!strings.Contains(sh.Error.Message, "[clipped: 4194321 bytes in all") || sh.Bytes() > 4*MaxShown {
			t.Errorf("%s: %d bytes shown, clipped %v, error %.80v", what, sh.Bytes(), sh.Clipped, sh.Error)
		}
	}
	var p Page
	allocated := allocs(t, func() {
		var err error
		if p, err = s.Page(r.ID, PageQuery{After: First, Limit: 10}); err != nil {
			t.Fatal(err)
		}
	})
	if len(p.Results) != 10 || allocated > 4<<20 {
		t.Errorf("a page of %d results allocated %d bytes", len(p.Results), allocated)
	}
	for _, sh := range p.Results {
		check("page", sh)
	}
	cells, err := s.Cells(r.ID, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	check("cell", cells[3])
	n := 0
	for sh, err := range s.AllShown(r.ID) {
		if err != nil {
			t.Fatal(err)
		}
		check("all", sh)
		n++
	}
	// A bound in bytes ends a page early, with one result at least.
	if p, _ := s.Page(r.ID, PageQuery{After: First, Limit: 10, MaxBytes: 1}); n != 10 || len(p.Results) != 1 || p.Next != 0 {
		t.Errorf("%d shown in all; a page bound to a byte: %d results, next %d", n, len(p.Results), p.Next)
	}
}

// allocs is how many bytes of Go memory fn allocates.
func allocs(t *testing.T, fn func()) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
