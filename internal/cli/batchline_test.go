package cli

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider"
)

// TestBatchLines: one line per change of a batch's state or counts, in each provider's
// counts, and none when a poll finds the batch as it was.
func TestBatchLines(t *testing.T) {
	var out strings.Builder
	tell := batchLines(&out)
	oa := provider.BatchInfo{ID: "batch_1", Provider: "openai", Kind: provider.KindOpenAI, State: "in_progress", Requests: 500,
		Detail: provider.BatchDetail{Counts: map[string]int{"total": 500, "completed": 120, "failed": 3}}}
	an := provider.BatchInfo{ID: "msgbatch_1", Provider: "claude", Kind: provider.KindAnthropic, State: "ended", Requests: 10,
		Detail: provider.BatchDetail{Counts: map[string]int{"succeeded": 7, "errored": 1, "expired": 2}, Stored: true}}
	tell([]provider.BatchInfo{oa})
	tell([]provider.BatchInfo{oa}) // polled again, unchanged
	oa.State = "finalizing"
	tell([]provider.BatchInfo{oa, an})
	want := "batch batch_1 at openai: in_progress, 123 of 500 requests done (Ctrl-C cancels it; benchy run --resume polls it again)\n" +
		"batch batch_1 at openai: finalizing, 123 of 500 requests done (Ctrl-C cancels it; benchy run --resume polls it again)\n" +
		"batch msgbatch_1 at claude: ended, 10 of 10 requests done; replies read\n"
	if out.String() != want {
		t.Errorf("lines:\n%s\nwant:\n%s", out.String(), want)
	}
}
