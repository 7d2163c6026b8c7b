package compare

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui/uitest"
)

func TestCanCompare(t *testing.T) {
	a := &api.Run{ID: "a", IRHash: "h", Total: 10}
	if !canCompare(nil, nil) || !canCompare(a, &api.Run{ID: "b", IRHash: "h", Total: 10}) ||
		canCompare(a, a) || canCompare(a, nil) ||
		canCompare(a, &api.Run{ID: "b", IRHash: "other", Total: 10}) || canCompare(a, &api.Run{ID: "b", IRHash: "h", Total: 5}) {
		t.Error("canCompare")
	}
	// Runs of one benchmark and dataset compare whatever their systems (and IR hashes); a
	// changed dataset, another benchmark or an unrecorded dataset do not.
	langdetect := &api.Run{ID: "a", IRHash: "ir1", BenchmarkHash: "bh", DatasetDigest: "d1", Total: 56}
	for _, c := range []struct {
		b    *api.Run
		want bool
	}{
		{&api.Run{ID: "b", IRHash: "ir2", BenchmarkHash: "bh", DatasetDigest: "d1", Total: 56}, true},
		{&api.Run{ID: "b", IRHash: "ir2", BenchmarkHash: "bh", DatasetDigest: "d2", Total: 56}, false},
		{&api.Run{ID: "b", IRHash: "ir1", BenchmarkHash: "other", DatasetDigest: "d1", Total: 56}, false},
		{&api.Run{ID: "b", IRHash: "ir2", BenchmarkHash: "bh", DatasetDigest: "d1", Total: 10}, false},
	} {
		if got := canCompare(langdetect, c.b); got != c.want {
			t.Errorf("canCompare(%+v, %+v) = %v, want %v", langdetect, c.b, got, c.want)
		}
	}
	if canCompare(&api.Run{ID: "a", BenchmarkHash: "bh", Total: 5}, &api.Run{ID: "b", BenchmarkHash: "bh", Total: 5}) {
		t.Error("two runs without a recorded dataset are comparable")
	}
}

// TestRefusalSentence: a refusal of two runs reads as a sentence naming what differs.
func TestRefusalSentence(t *testing.T) {
	a := &api.Run{BenchmarkHash: "sha256:aaaaaaaaaaaaaaaa", DatasetDigest: "sha256:1111111111112222"}
	b := &api.Run{BenchmarkHash: "sha256:bbbbbbbbbbbbbbbb", DatasetDigest: "sha256:3333333333334444"}
	old := &api.Run{BenchmarkHash: "sha256:aaaaaaaaaaaaaaaa"}
	for _, c := range []struct {
		code string
		a, b *api.Run
		want string
	}{
		{"different_datasets", a, b, "These runs took different datasets: the dataset changed between them (A 111111111111, B 333333333333)."},
		{"different_datasets", nil, b, "These runs took different datasets: the dataset changed between them."},
		{"different_datasets", a, old, "These runs cannot be compared: the dataset of one was not recorded (it ran before Benchy recorded datasets), so whether they took the same exam is unknown (A 111111111111, B not recorded)."},
		{"different_benchmarks", a, b, "These runs are of different benchmarks: their program, scoring or classification differ (A aaaaaaaaaaaa, B bbbbbbbbbbbb)."},
		{"not_found", a, b, ""},
	} {
		if got := refusalSentence(c.code, c.a, c.b); got != c.want {
			t.Errorf("refusalSentence(%s) = %q, want %q", c.code, got, c.want)
		}
	}
}

// TestDecodeComparison: a comparison as the server sends it.
func TestDecodeComparison(t *testing.T) {
	var c api.Comparison
	json.Unmarshal([]byte(`{"a":"A","b":"B","examples":4,"score_a":0.5,"score_b":0.75,"delta":0.25,
		"delta_interval":{"level":0.95,"low":0.1,"high":0.4,"method":"paired-bootstrap-percentile-2000"},
		"dimensions":[{"path":["x"],"accuracy_a":0.5,"accuracy_b":null,"delta":null}],"improved":1,"regressed":0,
		"flips":[{"index":2,"status_a":"valid","status_b":"valid","contribution_a":0,"contribution_b":1}]}`), &c)
	if c.Interval.Method != "paired-bootstrap-percentile-2000" || c.Flips[0].QB != 1 || c.Dimensions[0].Delta != nil {
		t.Errorf("comparison %+v", c)
	}
}

// TestRenderWithoutData renders the page in the states it passes through, with fields
// missing: nothing may panic, before or after the server answers.
func TestRenderWithoutData(t *testing.T) {
	done := api.Run{ID: "01B", Status: api.Completed, Report: json.RawMessage(`{"benchmark_score":0.5}`)}
	bare := api.Run{ID: "01A", Status: api.Running}
	refused := uitest.Failed[api.Comparison]("01A 01B", &client.Error{Code: "different_lengths"})
	pages := []*Page{
		{},
		{a: "01A"},
		{a: "01A", b: "01B", cands: uitest.Loaded("", []api.Run{bare, done})},
		{a: "01A", b: "01B", cmp: uitest.Loaded("01A 01B", api.Comparison{Dimensions: []api.CompareDimension{{}}, Flips: make([]api.Flip, 150)})},
		{a: "01A", b: "01B", cmp: refused},
	}
	uitest.Renders(t, pages...)
}

// placeholderSelected reports whether the placeholder option of a rendered select is
// selected: go-app writes the attributes in any order, and an unselected option as
// selected="false".
func placeholderSelected(sel string) bool {
	for _, tag := range optionTag.FindAllString(sel, -1) {
		if strings.Contains(tag, `value="-"`) {
			return selectedAttr.MatchString(tag)
		}
	}
	return false
}

var (
	optionTag    = regexp.MustCompile(`<option[^>]*>`)
	selectedAttr = regexp.MustCompile(`\sselected(="true")?[\s>]`)
)

// TestPickerShowsTheComparedRun: a run B from the URL that is not among B's choices (another
// benchmark's run, or no run) leaves the placeholder selected; the browser showed the first
// choice instead, a run that is not the one compared.
func TestPickerShowsTheComparedRun(t *testing.T) {
	runs := []api.Run{{ID: "01A", IRHash: "h", Status: api.Completed}, {ID: "01B", IRHash: "h", Status: api.Completed}}
	for _, tt := range []struct {
		b           string
		placeholder bool
	}{{"01B", false}, {"NOPE", true}, {"", true}} {
		p := &Page{a: "01A", b: tt.b, selA: "01A", selB: tt.b, cands: uitest.Loaded("", runs)}
		html := app.HTMLString(p.Render())
		i := strings.Index(html, `id="compare-b"`)
		if i < 0 {
			t.Fatalf("no run B picker in %s", html)
		}
		sel := html[i:]
		sel = sel[:strings.Index(sel, "</select>")]
		got := placeholderSelected(sel)
		if got != tt.placeholder {
			t.Errorf("b=%q: placeholder selected %v, want %v: %s", tt.b, got, tt.placeholder, sel)
		}
	}
}

// TestCandLabel: a run's line in the A and B selects names its AI-system by its label, as
// every page does: a model run is "local/llama3.2", not its provider "local".
func TestCandLabel(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name string
		run  api.Run
		want string
	}{
		{"a model run", api.Run{ID: "01ABCDEFGHJK0123456789", Binding: "local", System: &api.System{Label: "local/llama3.2"}, CreatedAt: created}, "local/llama3.2"},
		{"an external system", api.Run{ID: "01B", Binding: "langdetect", System: &api.System{Label: "langdetect"}, CreatedAt: created}, "langdetect"},
		{"a run stored before systems were recorded", api.Run{ID: "01C", Binding: "langdetect", CreatedAt: created}, "langdetect"},
	} {
		got := candLabel(c.run)
		if !strings.HasSuffix(got, " · "+c.want) {
			t.Errorf("%s: %q, want it to end with %q", c.name, got, c.want)
		}
	}
}
