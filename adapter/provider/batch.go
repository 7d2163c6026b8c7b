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
	// MaxAge is how long after its submission a batch that has not ended is waited for:
	// then it is cancelled at the provider and its unanswered requests fail as an expired
	// batch's. 0: DefaultMaxAge.
	MaxAge time.Duration
}

// DefaultMaxAge is how long a batch is waited for by default: the APIs' window is 24 hours
// (OpenAI's completion_window "24h", Anthropic's expiry), and a batch still going an hour
// after it would have expired is one the provider lost track of, not one worth a poll a
// minute forever.
const DefaultMaxAge = 25 * time.Hour

// Age is how long a batch is waited for: MaxAge, or DefaultMaxAge.
func (c BatchConfig) Age() time.Duration {
	if c.MaxAge > 0 {
		return c.MaxAge
	}
	return DefaultMaxAge
}

// The wait between polls of a batch, by default: a batch takes minutes to hours, and a
// poll costs a request of the provider's rate limit.
const (
	DefaultPollMin = 5 * time.Second
	DefaultPollMax = 60 * time.Second
)

// The documented limits of one batch. OpenAI: an input file holds at most 50,000 requests
// and 200 MB (the Batch API reference, "Create batch": input_file_id). Anthropic: a Message
// Batch holds at most 100,000 requests or 256 MB, whichever comes first (the Message
// Batches guide, "Batch limitations"). MB are taken as 10^6 bytes, the smaller reading.
var batchLimits = map[Kind]struct {
	requests int
	bytes    int64
}{
	KindOpenAI:    {50_000, 200_000_000},
	KindAnthropic: {100_000, 256_000_000},
}

// limits are c's bounds on one batch: the settings' where they are tighter.
func (c BatchConfig) limits(k Kind) (int, int64) {
	l := batchLimits[k]
	n, size := l.requests, l.bytes
	if c.MaxRequests > 0 {
		n = min(n, c.MaxRequests)
	}
	if c.MaxBytes > 0 {
		size = min(size, c.MaxBytes)
	}
	return n, size
}

// Wait is how long to wait before poll n (0 the first) of a batch: PollMin growing by half
// at each poll, up to PollMax.
func (c BatchConfig) Wait(n int) time.Duration {
	lo, hi := c.PollMin, c.PollMax
	if lo <= 0 {
		lo = DefaultPollMin
	}
	if hi <= 0 {
		hi = DefaultPollMax
	}
	d := lo
	for range n {
		if d >= hi {
			break
		}
		d += d / 2
	}
	return min(d, max(hi, lo))
}

// BatchInfo is one provider batch of a run, as the store keeps it (store.Batch): its id,
// the provider's state, and the Detail the run service needs to go on after a restart.
type BatchInfo struct {
	ID       string
	Provider string // the runtime file's name of the provider
	Kind     Kind
	// State is the provider's own status: OpenAI's validating, in_progress, finalizing,
	// completed, failed, expired, cancelling, cancelled (the Batch object's status);
	// Anthropic's in_progress, canceling, ended (the Message Batch's processing_status).
	State    string
	Requests int
	Detail   BatchDetail
	// Run is the run the batch is of, and Created when it was submitted (the store's
	// created_at): the run service fills them in, for the lines that tell of the batch and
	// for its MaxAge.
	Run     string
	Created time.Time
	// JustCancelled says this process has just cancelled the batch at the provider because
	// its run was cancelled: the line that tells of it says what a resume does. Not kept.
	JustCancelled bool
}

// BatchDetail is what a batch's record holds beside its state, as JSON (batches.detail).
type BatchDetail struct {
	// Indices are the examples the batch asks, as ranges [first, last]: a custom_id is
	// the example's index, and only these are read from its results.
	Indices      [][2]int       `json:"indices"`
	InputFileID  string         `json:"input_file_id,omitempty"`  // OpenAI
	OutputFileID string         `json:"output_file_id,omitempty"` // OpenAI
	ErrorFileID  string         `json:"error_file_id,omitempty"`  // OpenAI
	ResultsURL   string         `json:"results_url,omitempty"`    // Anthropic
	Counts       map[string]int `json:"request_counts,omitempty"` // the provider's request_counts
	Message      string         `json:"message,omitempty"`        // why a failed batch failed
	// Stored says the batch's results are in the store: nothing is left to ask of it.
	Stored bool `json:"stored,omitempty"`
	// CancelledByUs says the run cancelled the batch at the provider because a user
	// cancelled the run: its results keep only what the provider answered, and the requests
	// it left unanswered are sent again, in a new batch, by the run's resume. A batch that
	// expired or that someone else cancelled fails its unanswered requests instead.
	CancelledByUs bool `json:"cancelled_by_us,omitempty"`
	// Overdue says the batch had not ended MaxAge after it was submitted: it was cancelled,
	// and its unanswered requests fail as an expired batch's.
	Overdue bool `json:"overdue,omitempty"`
}

// Ended says the provider is done with the batch: its results can be read.
func (b BatchInfo) Ended() bool {
	switch b.State {
	case "completed", "failed", "expired", "cancelled", "ended":
		return true
	}
	return false
}

// Done is how many of a batch's requests the provider has finished, one way or another,
// by its request_counts (OpenAI's completed and failed; Anthropic's succeeded, errored,
// canceled and expired), at most the requests it holds: what the progress line, benchy
// runs show and the API say of a batch.
func (b BatchInfo) Done() int {
	c := b.Detail.Counts
	done := c["completed"] + c["failed"]
	if b.Kind == KindAnthropic {
		done = c["succeeded"] + c["errored"] + c["canceled"] + c["expired"]
	}
	if b.Requests > 0 {
		done = min(done, b.Requests)
	}
	return done
}

// Has says the batch asks example index.
func (d BatchDetail) Has(index int) bool {
	for _, r := range d.Indices {
		if index >= r[0] && index <= r[1] {
			return true
		}
	}
	return false
}

// Each calls fn with every example the batch asks, in order.
func (d BatchDetail) Each(fn func(index int)) {
	for _, r := range d.Indices {
		for i := r[0]; i <= r[1]; i++ {
			fn(i)
		}
	}
}

// add appends index, after every index before, to the ranges.
func (d *BatchDetail) add(index int) {
	if n := len(d.Indices); n > 0 && d.Indices[n-1][1] == index-1 {
		d.Indices[n-1][1] = index
		return
	}
	d.Indices = append(d.Indices, [2]int{index, index})
}

// BatchReplies gives the adapters of a batch run each example's reply, as the store kept
// it once its batch ended: the provider's reply body (secrets masked), or the message of
// the failure it was (the provider's error, an expired or cancelled batch's).
type BatchReplies interface {
	BatchReply(index int) (reply []byte, message string, ok bool, err error)
}
