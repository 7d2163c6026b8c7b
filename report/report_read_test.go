package report

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestReportFailedRunNotAScore: a run whose health failed shows its score greyed as not
// meaningful and draws no confusion matrix (all zeros: nothing was answered); a healthy
// run keeps both. An all-zero matrix is not drawn either way.
func TestReportFailedRunNotAScore(t *testing.T) {
	failed := fixture("R1", 4, "x")
	failed.Health = api.Health{Failed: true, Code: "provider_error", Message: "down", Count: 4, Examples: 4}
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{failed}}}})
	if !strings.Contains(html, `<span class="score muted" data-score>0.5000</span>`) || !strings.Contains(html, "not meaningful") {
		t.Errorf("the failed run's score is shown as a result")
	}
	if strings.Contains(html, "confusion matrix of kind") {
		t.Errorf("a failed run draws a confusion matrix")
	}
	healthy := fixture("R2", 4, "x")
	html = write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{healthy}}}})
	if !strings.Contains(html, `<span class="score" data-score>0.5000</span>`) || strings.Contains(html, "not meaningful") || !strings.Contains(html, "confusion matrix of kind") {
		t.Errorf("a healthy run lost its score or matrix")
	}
	healthy.Charts.Confusion[0] = matrix([]string{"kind"}, []string{"bill", "receipt", "quote"}, [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})
	if html = write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{healthy}}}}); strings.Contains(html, "confusion matrix of kind") {
		t.Errorf("an all-zero matrix is drawn")
	}
}

// TestReportReadable: a count over the two darkest shades of the confusion matrix is
// white (dark on dark blue was unreadable), over the lighter ones the default; one more
// failing example is said in the singular.
func TestReportReadable(t *testing.T) {
	v := confusionOf(matrix([]string{"kind"}, []string{"a", "b"}, [][]int{{9, 1}, {1, 1}}))
	if v.Cells[0].Text != "light" || v.Cells[1].Text != "" || v.Cells[3].Text != "" {
		t.Errorf("text classes %q %q %q: want light over the dark diagonal only", v.Cells[0].Text, v.Cells[1].Text, v.Cells[3].Text)
	}
	r := fixture("R1", 4, "x")
	r.FailingTotal = len(r.Failing) + 1
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{r}}}})
	if !strings.Contains(html, "1 more failing example is not listed") || !strings.Contains(html, `<text class="light"`) {
		t.Errorf("no singular line, or no light text:\n%.2000s", html)
	}
}
