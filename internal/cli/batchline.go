package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/store"
)

// batchLines tells w of a batch run's batches each time one's state or counts change,
// while the run waits for them: "batch batch_abc at openai: in_progress, 120 of 500 requests
// done". It is the waiting a batch run does, minutes or hours, made visible. rest is what
// the command that resumes the run takes after its id: the flags to repeat and the
// benchmark, as the user gave them.
func batchLines(w io.Writer, rest string) func([]provider.BatchInfo) {
	said := map[string]string{}
	return func(batches []provider.BatchInfo) {
		for _, b := range batches {
			if line := batchLine(b, rest); said[b.ID] != line {
				said[b.ID] = line
				fmt.Fprintln(w, line)
			}
		}
	}
}

// batchLine is what one line says of a batch: its id, provider, the provider's state and,
// when the provider counts them, how many of its requests are done; what Ctrl-C does to
// it while it runs, and what was done when it was cancelled.
func batchLine(b provider.BatchInfo, rest string) string {
	resume := invokedAs() + " run --resume " + b.Run + rest
	if b.Run == "" {
		resume = invokedAs() + " run --resume with the run's id"
	}
	if b.JustCancelled {
		return fmt.Sprintf("cancelled batch %s at the provider: its finished requests are kept; %s sends the rest again", b.ID, resume)
	}
	line := fmt.Sprintf("batch %s at %s: %s", b.ID, b.Provider, b.State)
	if len(b.Detail.Counts) > 0 || b.Requests > 0 {
		line += fmt.Sprintf(", %d of %d requests done", b.Done(), b.Requests)
	}
	switch {
	case b.Detail.Stored:
		line += "; replies read"
	case b.Detail.CancelledByUs:
		line += " (cancelled by this run: its finished requests are kept, the rest sent again)"
	case !b.Ended():
		line += " (Ctrl-C cancels it, its finished requests kept; " + resume + " sends the rest again)"
	}
	return line
}

// shownBatch is a batch as benchy runs show prints it: what the provider knows it by and
// how it went, from the store's record.
type shownBatch struct {
	ID       string         `json:"id"`
	Provider string         `json:"provider"`
	Kind     string         `json:"kind"`
	State    string         `json:"state"`
	Requests int            `json:"requests"`
	Counts   map[string]int `json:"request_counts,omitempty"`
	Read     bool           `json:"replies_read"`
	// CancelledByUs: the run cancelled it on its user's cancel; a resume sends again what
	// it did not process.
	CancelledByUs bool   `json:"cancelled_by_us,omitempty"`
	CreatedAt     string `json:"created_at"`
	PolledAt      string `json:"polled_at,omitempty"`
}

// shownBatches are the batches of run id, oldest first; none for a run sent request by
// request.
func shownBatches(st *store.Store, id string) ([]shownBatch, error) {
	stored, err := st.Batches(id)
	if err != nil {
		return nil, fmt.Errorf("reading the run's batches: %w", err)
	}
	var out []shownBatch
	for _, b := range stored {
		var d provider.BatchDetail
		_ = json.Unmarshal(b.Detail, &d) // a record it cannot read still shows its state
		out = append(out, shownBatch{ID: b.ID, Provider: b.Provider, Kind: b.Kind, State: b.State, Requests: b.Requests,
			Counts: d.Counts, Read: d.Stored, CancelledByUs: d.CancelledByUs, CreatedAt: b.CreatedAt, PolledAt: b.PolledAt})
	}
	return out, nil
}
