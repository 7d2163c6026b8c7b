package editor

import (
	"slices"
	"testing"
	"time"
)

func TestChoose(t *testing.T) {
	edited := func(path string, at int64) draft { return draft{Path: path, YAML: "b", Saved: "a", At: at} }
	clean := func(path string) draft { return draft{Path: path, YAML: "a", Saved: "a", At: 9} }
	for _, tc := range []struct {
		name, p string
		drafts  []kept
		how     found
		from    string // the tab whose draft is chosen
	}{
		{"nothing kept", "a.yaml", nil, fresh, ""},
		{"own first", "a.yaml", []kept{{tab: "x", draft: edited("a.yaml", 9)}, {tab: "me", draft: clean("b.yaml"), live: true}}, own, "me"},
		{"an orphan of the file", "a.yaml", []kept{{tab: "x", draft: edited("b.yaml", 9)}, {tab: "y", draft: edited("a.yaml", 1)}}, orphan, "y"},
		{"the newest orphan of the file", "a.yaml", []kept{{tab: "x", draft: edited("a.yaml", 1)}, {tab: "y", draft: edited("a.yaml", 5)}, {tab: "z", draft: edited("a.yaml", 3)}}, orphan, "y"},
		{"an orphan over a live tab's", "a.yaml", []kept{{tab: "x", draft: edited("a.yaml", 9), live: true}, {tab: "y", draft: edited("a.yaml", 1)}}, orphan, "y"},
		{"another open tab's edits", "a.yaml", []kept{{tab: "x", draft: edited("a.yaml", 9), live: true}}, elsewhere, "x"},
		{"nothing unsaved is nothing", "a.yaml", []kept{{tab: "x", draft: clean("a.yaml")}, {tab: "y", draft: clean("a.yaml"), live: true}}, fresh, ""},
		{"no file: the newest orphan of any", "", []kept{{tab: "x", draft: edited("b.yaml", 2)}, {tab: "y", draft: edited("", 4)}, {tab: "z", draft: edited("c.yaml", 3)}}, orphan, "y"},
		{"no file: not a live tab's", "", []kept{{tab: "x", draft: edited("b.yaml", 2), live: true}}, fresh, ""},
		{"the old shared draft is an orphan", "a.yaml", []kept{{tab: "before-tabs", draft: edited("a.yaml", 0)}}, orphan, "before-tabs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			how, k := choose("me", tc.p, tc.drafts)
			if how != tc.how || k.tab != tc.from {
				t.Errorf("choose = %v from %q, want %v from %q", how, k.tab, tc.how, tc.from)
			}
		})
	}
}

func TestPrune(t *testing.T) {
	edited := func(tab string, at int64, live bool) kept {
		return kept{tab: tab, draft: draft{YAML: "b", Saved: "a", At: at}, live: live}
	}
	clean := kept{tab: "clean", draft: draft{YAML: "a", Saved: "a"}}
	for _, tc := range []struct {
		name   string
		drafts []kept
		max    int
		gone   []string
	}{
		{"a left tab with nothing unsaved goes", []kept{clean, edited("x", 1, false)}, 20, []string{"clean"}},
		{"open tabs and this one stay, clean or not", []kept{{tab: "me", draft: clean.draft}, {tab: "y", draft: clean.draft, live: true}}, 20, []string{}},
		{"over the bound, the oldest left go", []kept{edited("me", 0, false), edited("a", 5, false), edited("b", 1, true), edited("c", 2, false), edited("d", 3, false)}, 3, []string{"c", "d"}},
		{"open tabs are never dropped for the bound", []kept{edited("a", 1, true), edited("b", 2, true), edited("c", 3, false)}, 1, []string{"c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := prune("me", tc.drafts, tc.max)
			slices.Sort(got)
			if !slices.Equal(got, tc.gone) {
				t.Errorf("prune = %v, want %v", got, tc.gone)
			}
		})
	}
}

func TestBeatLive(t *testing.T) {
	now := time.UnixMilli(100_000)
	for _, tc := range []struct {
		b    beat
		live bool
	}{
		{beat{At: 99_000, Instance: "i"}, true},
		{beat{At: 100_000 - orphanAfter.Milliseconds() + 1, Instance: "i"}, true},
		{beat{At: 100_000 - orphanAfter.Milliseconds(), Instance: "i"}, false},
		{beat{At: 99_000}, true}, // went a second ago: may be a reload
		{beat{At: 100_000 - releasedAfter.Milliseconds()}, false},
		{beat{}, false}, // none
	} {
		if got := tc.b.live(now); got != tc.live {
			t.Errorf("%+v live = %v, want %v", tc.b, got, tc.live)
		}
	}
}
