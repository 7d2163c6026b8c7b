package cli

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider"
)

// TestBatchLines: one line per change of a batch's state or counts, in each provider's
// counts, and none when a poll finds the batch as it was; the hint of a running batch says
// what Ctrl-C and a resume do (its finished requests kept, the rest sent again), and a
// batch cancelled by Ctrl-C gets a line saying so, naming the resume as it can be typed:
// the run's id, the flags to repeat and the benchmark (it named no benchmark, which
// benchy run then refused).
func TestBatchLines(t *testing.T) {
	var out strings.Builder
	tell := batchLines(&out, " -o 'my results.json' bench.yaml")
	oa := provider.BatchInfo{ID: "batch_1", Provider: "openai", Kind: provider.KindOpenAI, State: "in_progress", Requests: 500, Run: "r1",
		Detail: provider.BatchDetail{Counts: map[string]int{"total": 500, "completed": 120, "failed": 3}}}
	an := provider.BatchInfo{ID: "msgbatch_1", Provider: "claude", Kind: provider.KindAnthropic, State: "ended", Requests: 10,
		Detail: provider.BatchDetail{Counts: map[string]int{"succeeded": 7, "errored": 1, "expired": 2}, Stored: true}}
	tell([]provider.BatchInfo{oa})
	tell([]provider.BatchInfo{oa}) // polled again, unchanged
	oa.State = "finalizing"
	tell([]provider.BatchInfo{oa, an})
	oa.State, oa.JustCancelled, oa.Detail.CancelledByUs = "cancelling", true, true // Ctrl-C
	tell([]provider.BatchInfo{oa})
	oa.JustCancelled = false // its resume, polling it until it is cancelled
	tell([]provider.BatchInfo{oa})
	want := "batch batch_1 at openai: in_progress, 123 of 500 requests done (Ctrl-C cancels it, its finished requests kept; benchy run --resume r1 -o 'my results.json' bench.yaml sends the rest again)\n" +
		"batch batch_1 at openai: finalizing, 123 of 500 requests done (Ctrl-C cancels it, its finished requests kept; benchy run --resume r1 -o 'my results.json' bench.yaml sends the rest again)\n" +
		"batch msgbatch_1 at claude: ended, 10 of 10 requests done; replies read\n" +
		"cancelled batch batch_1 at the provider: its finished requests are kept; benchy run --resume r1 -o 'my results.json' bench.yaml sends the rest again\n" +
		"batch batch_1 at openai: cancelling, 123 of 500 requests done (cancelled by this run: its finished requests are kept, the rest sent again)\n"
	if out.String() != want {
		t.Errorf("lines:\n%s\nwant:\n%s", out.String(), want)
	}
}
