package provider

import "time"

// Batch mode: a provider with batch: true sends a run's requests through its batch API
// (OpenAI's Batch API, Anthropic's Message Batches) instead of one call per example, at
// about half the price, the answers within the provider's window (24 hours). The run
// service submits every request of the run before the engine runs (Batcher, batch_submit.go),
// polls the batches until they end and keeps each example's reply in the store; the
// engine then runs as usual, each adapter answering its example from the reply kept
// (modelAdapter.answer), so that a batch run's results are the synchronous run's.

// BatchConfig is a provider's batch settings: the runtime file's batch: true, and what
// tests shorten.
type BatchConfig struct {
	On bool // batch: true
	// PollMin and PollMax bound the wait between two polls of a batch: the first waits
	// PollMin, each next one half as long again, up to PollMax. 0: DefaultPollMin,
	// DefaultPollMax.
	PollMin, PollMax time.Duration
	// MaxRequests and MaxBytes bound one batch; a run with more is split into several.
	// 0: the provider's documented limits (batchLimits).
	MaxRequests int
	MaxBytes    int64
}

// The wait between polls of a batch, by default: a batch takes minutes to hours, and a
// poll costs a request of the provider's rate limit.
const (
	DefaultPollMin = 5 * time.Second
	DefaultPollMax = 60 * time.Second
)
