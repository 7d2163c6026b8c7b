package leaderboard

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/live"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

// TestPlotAxis: every interval is on the axis, in tenths, at least 0.2 wide, within 0..1.
func TestPlotAxis(t *testing.T) {
	entry := func(s, lo, hi float64) api.LeaderboardEntry {
		return api.LeaderboardEntry{Score: s, Interval: api.Interval{Low: lo, High: hi}}
	}
	for _, c := range []struct {
		name    string
		entries []api.LeaderboardEntry
		want    axis
	}{
		{"the language-id example's two systems", []api.LeaderboardEntry{entry(0.8393, 0.74, 0.93), entry(0.82, 0.71, 0.91)}, axis{0.7, 1}},
		{"a narrow interval widens to 0.2", []api.LeaderboardEntry{entry(0.55, 0.54, 0.56)}, axis{0.4, 0.7}},
		{"never beyond 0 and 1", []api.LeaderboardEntry{entry(0.02, 0, 0.05), entry(1, 0.97, 1)}, axis{0, 1}},
		{"no entry", nil, axis{0, 1}},
	} {
		got := plotAxis(c.entries)
		if !near(got.lo, c.want.lo) || !near(got.hi, c.want.hi) {
			t.Errorf("%s: axis %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := (axis{0.7, 1}).at(0.85); got != "50.00%" {
		t.Errorf("at(0.85) on 0.7..1 = %s, want the middle", got)
	}
	if got := (axis{0.6, 1}).ticks(); len(got) != 5 || got[0] != 0.6 || got[4] != 1 {
		t.Errorf("ticks %v", got)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestVerdict: the words beside each difference to the leader.
func TestVerdict(t *testing.T) {
	iv := &api.Interval{Low: -0.2, High: -0.05}
	for _, c := range []struct {
		e    api.LeaderboardEntry
		want string
	}{
		{api.LeaderboardEntry{}, "leader"},
		{api.LeaderboardEntry{DeltaVsLeader: -0.1, DeltaInterval: iv, Significant: true}, "significantly worse"},
		{api.LeaderboardEntry{DeltaVsLeader: -0.01, DeltaInterval: &api.Interval{Low: -0.05, High: 0.03}}, "not distinguishable"},
	} {
		if got, _ := verdict(c.e); got != c.want {
			t.Errorf("verdict(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}

// TestEverySystem: "Run every system" runs the benchmark's own system and those of its
// other files, each once; only a benchmark without other files takes every binding of its
// runtime file (the examples' binds OCR and speech systems a language-id run has no use for).
func TestEverySystem(t *testing.T) {
	langdetect := &api.AISystem{Type: "external", ID: "langdetect"}
	baseline := &api.AISystem{Type: "external", ID: "langid-baseline"}
	model := &api.AISystem{Type: "model", Provider: "local", Model: "llama3.2"}
	examples := []string{"invoice-ocr", "langdetect", "langid-baseline", "pocketsphinx-en"}
	for _, c := range []struct {
		name     string
		own      *api.AISystem
		siblings []*api.AISystem
		bindings []string
		want     []string
	}{
		{"language-id: this file's and baseline.yaml's", langdetect, []*api.AISystem{baseline}, examples, []string{"langdetect", "langid-baseline"}},
		{"a sibling of the same system counts once", langdetect, []*api.AISystem{langdetect, baseline}, examples, []string{"langdetect", "langid-baseline"}},
		{"no other file: every binding", &api.AISystem{Type: "external", ID: "a"}, nil, []string{"a", "b"}, []string{"a", "b"}},
		{"a model sibling runs as provider/model", langdetect, []*api.AISystem{model}, nil, []string{"langdetect", "local/llama3.2"}},
		{"a benchmark that does not compile runs nothing of its own", nil, nil, []string{"a"}, []string{"a"}},
	} {
		var got []string
		for _, l := range everySystem(c.own, c.siblings, c.bindings) {
			got = append(got, l.label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	plan := everySystem(langdetect, []*api.AISystem{baseline, model}, nil)
	want := []api.SystemChoice{{Own: true}, {System: "langid-baseline"}, {Model: "local/llama3.2"}}
	for i, c := range plan {
		if c.choice != want[i] {
			t.Errorf("choice %d: %+v, want %+v", i, c.choice, want[i])
		}
	}
}

// TestCompareHref: the better ranked of the two picked runs is A.
func TestCompareHref(t *testing.T) {
	p := &Page{board: uitest.Loaded("b\n", api.Leaderboard{Entries: []api.LeaderboardEntry{{Run: "01X"}, {Run: "01Y"}, {Run: "01Z"}}})}
	p.picks = []string{"01Z", "01X"}
	if got := p.compareHref(); got != "/compare?a=01X&b=01Z" {
		t.Errorf("compareHref %q", got)
	}
	p.picks = []string{"01Y"}
	if p.compareHref() != "" {
		t.Error("one pick compares")
	}
}

// TestRenderStates renders the page in the states it passes through: nothing may panic.
func TestRenderStates(t *testing.T) {
	acc := 0.75
	p50, p95 := 120.0, 900.0
	full := api.Leaderboard{
		BenchmarkHash: "sha256:ab", DatasetDigest: "sha256:cd", Dimensions: [][]string{{"language"}, {"x", "y"}},
		Entries: []api.LeaderboardEntry{
			{Rank: 1, System: "a", Run: "01A", Score: 0.8, Interval: api.Interval{Level: 0.95, Low: 0.7, High: 0.9}, Dimensions: []*float64{&acc, nil},
				Usage: &api.Usage{InputTokens: 10, OutputTokens: 5}, LatencyP50MS: &p50, LatencyP95MS: &p95},
			{Rank: 2, System: "b", Run: "01B", Score: 0.6, DeltaVsLeader: -0.2, DeltaInterval: &api.Interval{Low: -0.3, High: -0.1}, Significant: true},
		},
		Datasets: []api.LeaderboardDataset{{Digest: "sha256:cd", Systems: 2}, {Digest: "sha256:ef", Systems: 1}}, Unrecorded: 3,
		NotRanked: []api.LeaderboardNotRanked{{System: "local/m", Run: "01C", Reason: "every example of its latest run (5) was an execution error"}},
	}
	file := uitest.Loaded("b.yaml", api.BenchmarkFile{IR: []byte(`{"ai_system":{"type":"external","id":"a"}}`)})
	pages := []*Page{
		{},
		{benches: uitest.Loaded("", []api.Benchmark{{Path: "b.yaml", BenchmarkHash: "h", Valid: true}, {Path: "c.yaml", BenchmarkHash: "h"}, {Path: "bad.yaml"}})},
		{bench: "b.yaml"},
		{bench: "b.yaml", board: uitest.Failed[api.Leaderboard]("b.yaml\n", errors.New("offline"))},
		{bench: "b.yaml", board: uitest.Loaded("b.yaml\n", api.Leaderboard{}), file: file, bindings: uitest.Loaded("b.yaml", api.Bindings{Bindings: []string{"a", "b"}}),
			benches: uitest.Loaded("", []api.Benchmark{{Path: "b.yaml"}}), launchErr: errors.New("refused")},
		{bench: "b.yaml", board: uitest.Loaded("b.yaml\n", api.Leaderboard{}), launched: []*live.Run{{ID: "01A"}}},
		// the board and the list came before the file: another file of the benchmark, no own system yet
		{bench: "b.yaml", board: uitest.Loaded("b.yaml\n", api.Leaderboard{}),
			benches: uitest.Loaded("", []api.Benchmark{{Path: "b.yaml", BenchmarkHash: "h", Valid: true}, {Path: "c.yaml", BenchmarkHash: "h", Valid: true}})},
		{bench: "b.yaml", board: uitest.Loaded("b.yaml\n", full), picks: []string{"01A"}},
	}
	uitest.Renders(t, pages...)
}

// TestDatasetOption: the dataset select counts what the server counts, systems with any
// completed run of the dataset (runs of the first N examples too), and says so: it counted
// 6 "systems" where the heading ranked 4.
func TestDatasetOption(t *testing.T) {
	for _, c := range []struct {
		d    api.LeaderboardDataset
		want string
	}{
		{api.LeaderboardDataset{Digest: "sha256:9531168cc16a0123", Systems: 6}, "9531168cc16a · 6 systems ran"},
		{api.LeaderboardDataset{Digest: "sha256:7c4f00000000ffff", Systems: 1}, "7c4f00000000 · 1 system ran"},
	} {
		if got := datasetOption(c.d); got != c.want {
			t.Errorf("datasetOption(%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestReportRuns: the board's report has each ranked system's run in rank order, at most
// as many as the server puts in one report (more is a 400).
func TestReportRuns(t *testing.T) {
	b := &api.Leaderboard{Entries: []api.LeaderboardEntry{{Run: "01X"}, {Run: "01Y"}}}
	if got := strings.Join(reportRuns(b), " "); got != "01X 01Y" {
		t.Errorf("reportRuns %q", got)
	}
	for range 60 {
		b.Entries = append(b.Entries, api.LeaderboardEntry{Run: "01Z"})
	}
	if n := len(reportRuns(b)); n != maxReportRuns {
		t.Errorf("%d runs of 62, want %d", n, maxReportRuns)
	}
}
