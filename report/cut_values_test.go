package report

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestReportShowsCutTextOfClippedValues: an example whose values the store cut (one JSON
// string of their start and a marker, store.Clip: a value past what the report reads
// whole) shows, field by field, each value its start holds whole (cut at MaxValue), the
// start of the value it cuts, marked, and a mark for the fields past the cut: never an
// empty cell, where every field of it was.
func TestReportShowsCutTextOfClippedValues(t *testing.T) {
	value := func(prefix, word string) json.RawMessage { // cut in <prefix>1, <prefix>2 past the cut
		raw, _ := json.Marshal(map[string]string{prefix + "0": word + " 0 " + strings.Repeat("x", 10_000),
			prefix + "1": word + " 1 " + strings.Repeat("y", 10_000), prefix + "2": word + " 2"})
		return raw
	}
	cut := func(raw json.RawMessage) json.RawMessage {
		c, clipped := store.Clip(raw, len(raw))
		if !clipped {
			t.Fatalf("%d bytes are not clipped", len(raw))
		}
		return c
	}
	score := 0.0
	r := wideRun("R1", 3, 1, "v", func(int) bool { return true })
	r.Failing[0] = api.Result{Index: 0, Status: "valid", Score: &score, Clipped: true,
		Input: cut(value("i", "in")), Expected: cut(value("f", "right")), Prediction: cut(value("f", "wrong")),
		FieldScores: []api.FieldScore{{Path: []string{"f0"}, Weight: 1}, {Path: []string{"f1"}, Weight: 1}, {Path: []string{"f2"}, Weight: 1}}}
	html := write(t, Report{Examples: 1, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{r}}}})
	if n := strings.Count(html, `<td class="v"></td>`); n > 0 {
		t.Errorf("%d empty value cells, want none", n)
	}
	for _, want := range []string{
		`<td>f1</td><td class="v">&#34;right 1 yyy`, `<td>i1</td><td class="v">&#34;in 1 yyy`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if !regexp.MustCompile(`<td>f0</td><td class="v">&#34;right 0 x+… \(\d+ more bytes\)</td><td class="v">&#34;wrong 0 x+… \(\d+ more bytes\)</td>`).MatchString(html) {
		t.Errorf("f0, whole in the stored start, is not cut at MaxValue with how many more bytes")
	}
	if !regexp.MustCompile(`<td>i0</td><td class="v">&#34;in 0 x+… \(\d+ more bytes\)</td>`).MatchString(html) {
		t.Errorf("i0, whole in the stored start, is not cut at MaxValue with how many more bytes")
	}
	if !regexp.MustCompile(`<td>f2</td><td class="v">[^<]*cut by the store[^<]*</td><td class="v">[^<]*cut by the store[^<]*</td>`).MatchString(html) {
		t.Errorf("f2, past the stored start, is not marked as cut by the store")
	}
}
