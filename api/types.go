package api

import (
	"encoding/json"
	"time"
)

// The answers of the API, field for field and in the order the server writes them; the
// field comments name the server's source of each. A client may meet any field missing
// (an older server) and should show a blank rather than fail.

// Benchmark is one entry of GET /api/benchmarks.
type Benchmark struct {
	Path        string          `json:"path"`
	Valid       bool            `json:"valid"`
	Diagnostics int             `json:"diagnostics"`
	Task        string          `json:"task,omitempty"`
	Domain      string          `json:"domain,omitempty"`
	Language    json.RawMessage `json:"language,omitempty"` // "es" or {"source", "target"}
	IRHash      string          `json:"ir_hash,omitempty"`
	// BenchmarkHash is the same for files that differ only in their AI-system: the systems
	// of one leaderboard.
	BenchmarkHash string   `json:"benchmark_hash,omitempty"`
	LastScore     *float64 `json:"last_score,omitempty"` // of its newest completed full run
	LastRun       string   `json:"last_run,omitempty"`   // that run's id
	// LastFailed says that run failed as infrastructure (most examples execution errors,
	// as Health.Failed): its score measures the setup, not the system.
	LastFailed bool `json:"last_failed,omitempty"`
	// LastPartial is the newest completed partial run (of the first N examples, --limit)
	// newer than the one LastScore is of: a score of part of the dataset, shown as such.
	LastPartial *PartialScore `json:"last_partial,omitempty"`
}

// PartialScore is a completed run of only the first Examples examples of a dataset.
type PartialScore struct {
	ID       string   `json:"id"`
	Score    *float64 `json:"score"`
	Examples int      `json:"examples"`
}

// Compiled is POST /api/compile: the IR (null when the benchmark has problems), its hash
// and the diagnostics, the same compiler and output as the CLI.
type Compiled struct {
	IR            json.RawMessage `json:"ir"`
	IRHash        string          `json:"ir_hash"`
	BenchmarkHash string          `json:"benchmark_hash,omitempty"` // the IR's without its AI-system
	Diagnostics   []Diagnostic    `json:"diagnostics"`
}

// BenchmarkFile is GET and PUT /api/benchmarks/{path}: the YAML, and what it compiles to.
// ETag names the version of the file's bytes (also the ETag header): a save over it sends
// it back as If-Match, so that a change made since is not overwritten unseen.
type BenchmarkFile struct {
	Path        string          `json:"path"`
	YAML        string          `json:"yaml"`
	IR          json.RawMessage `json:"ir"` // null when the benchmark has problems
	IRHash      string          `json:"ir_hash"`
	Diagnostics []Diagnostic    `json:"diagnostics"`
	ETag        string          `json:"etag,omitempty"` // "sha256:<hex>" quoted, of the bytes on disk
}

// AISystem is the IR's "ai_system" of the file, or nil when it has no IR.
func (f BenchmarkFile) AISystem() *AISystem {
	var ir struct {
		AISystem *AISystem `json:"ai_system"`
	}
	if len(f.IR) == 0 || json.Unmarshal(f.IR, &ir) != nil {
		return nil
	}
	return ir.AISystem
}

// Diagnostic is a diagnostic (diag.Diagnostic): File names the file Line and Column point
// into when it is known (an aborted run's dataset; not a compiled text's).
type Diagnostic struct {
	File       string   `json:"file,omitempty"`
	Phase      string   `json:"phase"`
	Code       string   `json:"code"`
	Path       []string `json:"path"`
	Message    string   `json:"message"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	Suggestion string   `json:"suggestion,omitempty"`
}

// AISystem is a benchmark's AI-system: an external system (ID) or a model (Provider,
// Model). It is read from the IR, not sent on its own.
type AISystem struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// System is the AI-system as a run took it (engine.System): Hash is what runs of one
// system share.
type System struct {
	Label              string          `json:"label"`
	Definition         json.RawMessage `json:"definition"`
	PromptSHA256       string          `json:"prompt_sha256,omitempty"`
	Binding            string          `json:"binding"`
	BindingFingerprint string          `json:"binding_fingerprint"`
	Hash               string          `json:"hash"`
}

// BindingName is the runtime name the AI-system binds to: the binding of an external
// system, the provider of a model.
func (s AISystem) BindingName() string {
	if s.Type == "model" {
		return s.Provider
	}
	return s.ID
}

// Bindings is GET /api/bindings[?benchmark=PATH]: the names a runtime file binds, never
// commands, URLs or keys. RuntimeFile is the workspace path of the runtime file the
// benchmark binds through (the workspace root's without ?benchmark), "" when there is none.
type Bindings struct {
	Bindings    []string `json:"bindings"`
	Providers   []string `json:"providers"`
	RuntimeFile string   `json:"runtime_file,omitempty"`
	// Executors are where else than this machine a run may go (StartRun.Executor).
	Executors []Executor `json:"executors,omitempty"`
}

// StartRun is the body of POST /api/runs. Without Systems the benchmark's own AI-system
// runs; with them, each is one run of the same benchmark (one benchmark hash).
type StartRun struct {
	Benchmark   string         `json:"benchmark"` // relative to the workspace
	Limit       int            `json:"limit"`
	Concurrency int            `json:"concurrency"`
	Systems     []SystemChoice `json:"systems,omitempty"`
	// RecordRequests is how many examples, from the first, keep the request sent to a
	// model (benchy run --record-requests): 0 the default (the first 20), N > 0 the first
	// N, RecordAll (-1) every example, RecordNone (-2) none. Options.RecordRequests of the
	// run says the same in the same numbers.
	RecordRequests int `json:"record_requests,omitempty"`
	// Cache is the response cache's mode for this run (benchy run --cache): off, use,
	// refresh or only, over each provider's cache: in the runtime file; "" keeps those.
	Cache string `json:"cache,omitempty"`
	// MaxCost (US dollars) and MaxTokens (input and output tokens) are the run's budget
	// (--max-cost, --max-tokens): it starts no request that would exceed it and ends
	// cancelled with reason "budget". 0: no budget.
	MaxCost   float64 `json:"max_cost,omitempty"`
	MaxTokens int     `json:"max_tokens,omitempty"`
	// Executor is where the run goes: "" or ExecutorLocal this machine, else the name of
	// an executor of the runtime file (Bindings.Executors), which runs Shards shards (0:
	// the executor's default) and merges them into this one run.
	Executor string `json:"executor,omitempty"`
	Shards   int    `json:"shards,omitempty"`
}

// StartRun.RecordRequests for every example and for none (engine.RecordAll, RecordNone).
const (
	RecordAll  = -1
	RecordNone = -2
)

// CacheModes are the values of StartRun.Cache (provider.CacheModes).
var CacheModes = []string{"off", "use", "refresh", "only"}

// SystemChoice is one AI-system to run a benchmark against: exactly one of its fields.
type SystemChoice struct {
	System string `json:"system,omitempty"` // an external AI-system bound in the runtime file (benchy run --system)
	Model  string `json:"model,omitempty"`  // PROVIDER/MODEL of a runtime provider (--model)
	// YAML is a file's text holding one ai-system: mapping (--system-file), checked with
	// the compiler's rules.
	YAML string `json:"yaml,omitempty"`
	// Own names the benchmark's own AI-system, as the file defines it.
	Own bool `json:"own,omitempty"`
}

// Resume is the optional body of POST /api/runs/{id}/resume. Left out (or {}), the run goes
// on within the budget it was started with; a larger MaxCost or MaxTokens raises it, for a
// run cancelled with reason budget to go on, and one the run has none of bounds what is left
// to spend. A smaller one is refused (400 bad_request): a resume never lowers a budget.
type Resume struct {
	MaxCost   float64 `json:"max_cost,omitempty"`
	MaxTokens int     `json:"max_tokens,omitempty"`
}

// Started is the answer of POST /api/runs and of a resume: the run's id, and with several
// systems the id of each run, in the order of StartRun.Systems (ID is the first).
type Started struct {
	ID  string   `json:"id"`
	IDs []string `json:"ids,omitempty"`
}

// InvalidBenchmarkError is the error answer of a run of a benchmark that does not compile.
type InvalidBenchmarkError struct {
	Error
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Summary counts examples by status (engine.Summary).
type Summary struct {
	Examples        int `json:"examples"`
	Valid           int `json:"valid"`
	InvalidOutputs  int `json:"invalid_outputs"`
	ExecutionErrors int `json:"execution_errors"`
}

// RunError is why a run was aborted (store.Run.Error): a diagnostic with its file, relative
// to the workspace.
type RunError = Diagnostic

// Options are what a run was started with (store.Options).
type Options struct {
	Limit          int `json:"limit,omitempty"`
	Concurrency    int `json:"concurrency,omitempty"`
	RecordRequests int `json:"record_requests,omitempty"` // store.Options.RecordRequests
	// MaxCost, MaxTokens and Cache are StartRun's, as a resume keeps or raises them.
	MaxCost   float64 `json:"max_cost,omitempty"`
	MaxTokens int     `json:"max_tokens,omitempty"`
	Cache     string  `json:"cache,omitempty"`
}

// Run statuses (store.Status).
const (
	Queued      = "queued"
	Running     = "running"
	Completed   = "completed"
	Aborted     = "aborted"
	Cancelled   = "cancelled"
	Interrupted = "interrupted"
)

// Run is a run as GET /api/runs and GET /api/runs/{id} show it (store.Run and the live
// rate): while the server runs it, total, summary and rate are the engine's live figures.
type Run struct {
	ID        string          `json:"id"`
	Benchmark string          `json:"benchmark"`
	IR        json.RawMessage `json:"ir,omitempty"` // left out of listings
	IRHash    string          `json:"ir_hash"`
	// BenchmarkHash, DatasetDigest and System are the run's identities: DatasetDigest is
	// "" until the dataset was validated, and for runs stored before Benchy recorded it.
	BenchmarkHash string          `json:"benchmark_hash"`
	DatasetDigest string          `json:"dataset_digest"`
	System        *System         `json:"system"`
	AISystem      json.RawMessage `json:"ai_system"`
	Binding       string          `json:"binding"`
	Options       Options         `json:"options"`
	Status        string          `json:"status"`
	CreatedAt     time.Time       `json:"created_at"`
	StartedAt     *time.Time      `json:"started_at"`
	FinishedAt    *time.Time      `json:"finished_at"`
	Total         int             `json:"total"`
	Done          int             `json:"done"`
	Summary       *Summary        `json:"summary"`
	Report        json.RawMessage `json:"report,omitempty"` // a Report, once completed
	Error         *RunError       `json:"error"`
	Rate          *float64        `json:"rate,omitempty"` // examples evaluated per second, while running
	// Health is whether the run is a score or failed infrastructure (most examples
	// execution errors), once it has results.
	Health *Health `json:"health,omitempty"`
	// Reason says why the run ended as it did when its status alone does not (store
	// runs.reason): ReasonBudget for a run cancelled at its budget.
	Reason string `json:"reason,omitempty"`
	// Waiting says what a running run waits for, when it waits: its provider's rate limit,
	// or its provider batches.
	Waiting *Waiting `json:"waiting,omitempty"`
	// Batches are the provider batches of a run sent through a batch API (batch: true), in
	// the order they were submitted: GET /api/runs/{id} only.
	Batches []Batch `json:"batches,omitempty"`
	// Cluster is where a run on an executor runs and how far its shards are (cluster.go).
	Cluster *Cluster `json:"cluster,omitempty"`
}

// Waiting is what a running run waits for (Run.Waiting, Progress.Waiting).
type Waiting struct {
	For   string    `json:"for"`   // WaitRateLimit or WaitBatch
	Since time.Time `json:"since"` // since when
	// Detail says why or how far: the limit ("tokens per minute"), or the batches' state
	// ("batch batch_abc: in_progress 120/500").
	Detail string `json:"detail,omitempty"`
	// Batches are the batches not yet ended and read, for WaitBatch.
	Batches []Batch `json:"batches,omitempty"`
}

// Waiting.For values.
const (
	WaitRateLimit = "rate_limit" // the provider's rate limit (requests or tokens per minute, its headers, a 429)
	WaitBatch     = "batch"      // the provider batches the run's requests were sent in
)

// Batch is one provider batch of a run (store.Batch).
type Batch struct {
	ID       string `json:"id"`
	Provider string `json:"provider"` // the runtime file's name of the provider
	Kind     string `json:"kind"`     // openai, anthropic
	State    string `json:"state"`    // the provider's: validating, in_progress, ended, ...
	Requests int    `json:"requests"`
	// Done is how many of its requests the provider has finished, succeeded or failed, as
	// its request_counts say; Counts are those counts as the provider gave them.
	Done   int            `json:"done"`
	Counts map[string]int `json:"counts,omitempty"`
}

// ReasonBudget is Run.Reason of a run cancelled because its next requests would have
// exceeded its budget (max_cost, max_tokens): resumed with a larger one, it goes on.
const ReasonBudget = "budget"

// Runs is GET /api/runs.
type Runs struct {
	Runs []Run `json:"runs"`
}

// Active reports whether a run with status s may still change.
func Active(s string) bool { return s == Queued || s == Running }

// Resumable reports whether a run with status s can be resumed.
func Resumable(s string) bool { return s == Interrupted || s == Cancelled }

// DecodeReport decodes the run's report, nil until the run completed.
func (r Run) DecodeReport() *Report {
	if len(r.Report) == 0 || string(r.Report) == "null" {
		return nil
	}
	var rep Report
	if json.Unmarshal(r.Report, &rep) != nil {
		return nil
	}
	return &rep
}

// Report is a completed run's report (engine.Report).
type Report struct {
	Version        string          `json:"version"`
	BenchmarkScore *float64        `json:"benchmark_score"`
	Summary        Summary         `json:"summary"`
	IRHash         string          `json:"ir_hash"`
	BenchmarkHash  string          `json:"benchmark_hash,omitempty"`
	DatasetDigest  string          `json:"dataset_digest,omitempty"`
	AISystem       json.RawMessage `json:"ai_system"`
	System         *System         `json:"system,omitempty"`
	Binding        string          `json:"binding"`
	StartedAt      string          `json:"started_at"`
	FinishedAt     string          `json:"finished_at"`
	Dimensions     []Dimension     `json:"dimensions"`
	Confidence     *Interval       `json:"confidence_interval"`
	Concurrency    int             `json:"concurrency"`
	Limit          int             `json:"limit,omitempty"`
	Usage          *Usage          `json:"usage,omitempty"` // model runs: tokens and latency summed
	Cache          *CacheCounts    `json:"cache,omitempty"` // model runs with a cache: its hits and misses
}

// CacheCounts are a run's response-cache lookups (engine.CacheCounts): examples answered
// from the cache, and examples sent to the provider (or missing, with cache only).
type CacheCounts struct {
	Hits   int `json:"hits"`
	Misses int `json:"misses"`
}

// Dimension is one scoring dimension's accuracy among valid examples.
type Dimension struct {
	Path     []string `json:"path"`
	Weight   float64  `json:"weight"`
	Correct  int      `json:"correct"`
	Valid    int      `json:"valid"`
	Accuracy *float64 `json:"accuracy"` // null when no example was valid
}

// Interval is a confidence interval.
type Interval struct {
	Level  float64 `json:"level"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Method string  `json:"method"`
}

// Usage sums what a model run cost (engine.UsageTotals).
type Usage struct {
	Examples     int     `json:"examples"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	LatencyMS    float64 `json:"latency_ms"`
	// CostUSD sums the examples' cost in US dollars (PricedExamples of them have one);
	// null when the model has no price in the runtime file.
	CostUSD        *float64 `json:"cost_usd,omitempty"`
	PricedExamples int      `json:"priced_examples,omitempty"`
	// CachedCostUSD is the part of CostUSD replayed from the response cache: not paid
	// again by this run.
	CachedCostUSD *float64 `json:"cached_cost_usd,omitempty"`
}

// ExampleUsage is what one model call cost (engine.Usage).
type ExampleUsage struct {
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	LatencyMS    float64 `json:"latency_ms"`
	// Cached says the reply came from the response cache (true: not paid again) or from
	// the provider with the cache on (false); null when the run used no cache.
	Cached *bool `json:"cached,omitempty"`
	// CostUSD is what the call cost at the model's price (a replay what it cost when
	// made); null when the model has no price.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// Example statuses (engine.Status), the values of the results filter.
const (
	Valid          = "valid"
	InvalidOutput  = "invalid_output"
	ExecutionError = "execution_error"
)

// Result is one example's result (A.14, engine.ExampleResult), with the dataset row's
// input and expected output when the server can read them.
type Result struct {
	Index        int             `json:"index"`
	Status       string          `json:"status"`
	Prediction   json.RawMessage `json:"prediction"`
	FieldScores  []FieldScore    `json:"field_scores"`
	Score        *float64        `json:"score"`
	Contribution float64         `json:"contribution"`
	Error        *ResultError    `json:"error"`
	Usage        *ExampleUsage   `json:"usage,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	Expected     json.RawMessage `json:"expected,omitempty"`
	// Clipped says a value of the result (its prediction, its error's path or message, its
	// input or expected output) is longer than a page shows: that value is its start and
	// a marker (a JSON string, or for the path its last element); the export has it whole.
	Clipped bool `json:"clipped,omitempty"`
}

// FieldScore is the exact-match score of one dimension of one example.
type FieldScore struct {
	Path   []string `json:"path"`
	Score  float64  `json:"score"`
	Weight float64  `json:"weight"`
}

// ResultError is why an example has no score. Path is null for execution errors.
type ResultError struct {
	Code    string   `json:"code"`
	Path    []string `json:"path"`
	Message string   `json:"message"`
}

// ResultPage is GET /api/runs/{id}/results: a page of results, Next the "after" of the
// next page (-1 on the last).
type ResultPage struct {
	Results []Result `json:"results"`
	Next    int      `json:"next"`
	// RowsNote says why the results carry no input and expected output: the dataset
	// changed since the run, the run recorded none, or it cannot be read now.
	RowsNote string `json:"rows_note,omitempty"`
	// Total is how many results the filter selects, when the store counts them by index
	// (not for a text search or a confusion cell, which are scanned).
	Total *int `json:"total,omitempty"`
	// Scanned is set when a scanned filter (text, confusion cell) stopped at its budget
	// before filling the page: the examples up to Next were searched, and the page may
	// hold fewer than its limit though Next is not -1. Ask again from Next for more.
	Scanned bool `json:"scanned,omitempty"`
}

// Progress is the "progress" event of GET /api/runs/{id}/events, and a run's live progress.
type Progress struct {
	Done    int     `json:"done"`
	Total   int     `json:"total"`
	Summary Summary `json:"summary"`
	Rate    float64 `json:"rate"` // examples evaluated (not reused) per second in this execution
	// Waiting is Run.Waiting: sent again as a progress event whenever it changes.
	Waiting *Waiting `json:"waiting,omitempty"`
	// Cluster is Run.Cluster: a run on an executor, its shards read from their journals.
	Cluster *Cluster `json:"cluster,omitempty"`
}

// Example is the "example" event: one completed example.
type Example struct {
	Index  int      `json:"index"`
	Status string   `json:"status"`
	Score  *float64 `json:"score"`
}

// Skipped is the "skipped" event: the examples From to To (inclusive) completed, but the
// client fell behind and was not sent them one by one; the results pages have them.
type Skipped struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Count int `json:"count"`
}

// Done is the "done" event, the last of a stream: where the run ended.
type Done struct {
	Status         string    `json:"status"`
	Summary        *Summary  `json:"summary"`
	BenchmarkScore *float64  `json:"benchmark_score,omitempty"`
	Error          *RunError `json:"error,omitempty"`
}

// Comparison is GET /api/runs/compare: run B minus run A (compare.Comparison).
type Comparison struct {
	A          string             `json:"a"`
	B          string             `json:"b"`
	Examples   int                `json:"examples"`
	ScoreA     float64            `json:"score_a"`
	ScoreB     float64            `json:"score_b"`
	Delta      float64            `json:"delta"`
	Interval   Interval           `json:"delta_interval"`
	Dimensions []CompareDimension `json:"dimensions"`
	Improved   int                `json:"improved"`  // examples whose contribution rose
	Regressed  int                `json:"regressed"` // examples whose contribution fell
	Flips      []Flip             `json:"flips"`     // the first MaxFlips changed examples
}

// CompareDimension compares one dimension's accuracy.
type CompareDimension struct {
	Path      []string `json:"path"`
	AccuracyA *float64 `json:"accuracy_a"`
	AccuracyB *float64 `json:"accuracy_b"`
	Delta     *float64 `json:"delta"`
}

// Flip is one example whose outcome changed between the runs.
type Flip struct {
	Index       int             `json:"index"`
	StatusA     string          `json:"status_a"`
	StatusB     string          `json:"status_b"`
	QA          float64         `json:"contribution_a"`
	QB          float64         `json:"contribution_b"`
	PredictionA json.RawMessage `json:"prediction_a"` // null for an execution error
	PredictionB json.RawMessage `json:"prediction_b"`
}

// MaxFlips is how many changed examples a comparison lists at most (compare.MaxFlips).
const MaxFlips = 1000

// Saved is the answer of PUT /api/files/{path}: what was written.
type Saved struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Leaderboard is GET /api/leaderboard: for one benchmark (BenchmarkHash) and one dataset
// (DatasetDigest), the latest completed full run of each AI-system, best first.
type Leaderboard struct {
	Benchmark     string `json:"benchmark,omitempty"` // the file asked for, when one was
	BenchmarkHash string `json:"benchmark_hash"`
	DatasetDigest string `json:"dataset_digest"`
	// Dimensions are the scoring dimensions' paths, in order: the columns of each entry's
	// Dimensions.
	Dimensions [][]string         `json:"dimensions"`
	Entries    []LeaderboardEntry `json:"entries"`
	// Datasets are the digests of the datasets this benchmark's completed runs took, newest
	// first, with their number of systems: what else may be chosen (?dataset_digest=).
	Datasets []LeaderboardDataset `json:"datasets"`
	// Unrecorded counts completed runs of the benchmark stored before Benchy recorded
	// datasets: they are in no leaderboard ("dataset not recorded").
	Unrecorded int `json:"unrecorded"`
	// NotRanked are systems whose latest full run on this dataset had an execution error
	// on every example (the system was never reached: a model server not running, a
	// command that crashes): a score of 0 there measures the setup, not the system.
	NotRanked []LeaderboardNotRanked `json:"not_ranked"`
	// DatasetNote says why a board asked for by file is not of the file's dataset as it
	// stands (it does not validate now): it is of the newest completed run's.
	DatasetNote string `json:"dataset_note,omitempty"`
}

// LeaderboardEntry is one AI-system's place.
type LeaderboardEntry struct {
	Rank       int      `json:"rank"`   // 1 for the best; equal scores share a rank
	System     string   `json:"system"` // its label
	SystemHash string   `json:"system_hash"`
	Run        string   `json:"run"`
	Benchmark  string   `json:"benchmark"` // the file the run was started from
	Score      float64  `json:"score"`
	Interval   Interval `json:"interval"` // the score's confidence interval
	// DeltaVsLeader is this score minus the leader's (0 for the leader), paired over the
	// examples, with its interval; Significant says the interval excludes 0.
	DeltaVsLeader   float64   `json:"delta_vs_leader"`
	DeltaInterval   *Interval `json:"delta_interval"` // null for the leader
	Significant     bool      `json:"significant"`
	Examples        int       `json:"examples"`
	Valid           int       `json:"valid"`
	InvalidOutputs  int       `json:"invalid_outputs"`
	ExecutionErrors int       `json:"execution_errors"`
	// Dimensions is each dimension's accuracy among valid examples (null when none was
	// valid), in the order of Leaderboard.Dimensions.
	Dimensions   []*float64 `json:"dimensions"`
	Usage        *Usage     `json:"usage,omitempty"`          // tokens, where recorded
	LatencyP50MS *float64   `json:"latency_p50_ms,omitempty"` // where recorded
	LatencyP95MS *float64   `json:"latency_p95_ms,omitempty"`
	FinishedAt   *time.Time `json:"finished_at"`
}

// LeaderboardNotRanked is a system left off the ranking, with its run and why.
type LeaderboardNotRanked struct {
	System string `json:"system"`
	Run    string `json:"run"`
	Reason string `json:"reason"`
}

// LeaderboardDataset is one dataset a benchmark's completed runs took.
type LeaderboardDataset struct {
	Digest  string `json:"digest"`
	Systems int    `json:"systems"`
}

// Example grid filters (GET /api/leaderboard/examples?filter=).
const (
	FilterDisagree = "disagree"  // the systems' outcomes differ
	FilterAllWrong = "all_wrong" // no system has the example fully right
)

// Grid is GET /api/leaderboard/examples: a page of examples of a leaderboard, each with
// its input, expected output and every system's prediction side by side.
type Grid struct {
	BenchmarkHash string       `json:"benchmark_hash"`
	DatasetDigest string       `json:"dataset_digest"`
	Systems       []GridSystem `json:"systems"` // the leaderboard's order: the columns of each row's Cells
	Rows          []GridRow    `json:"rows"`
	Matched       int          `json:"matched"`             // examples the filter keeps, over every page
	Next          int          `json:"next"`                // the after of the next page, -1 on the last
	RowsNote      string       `json:"rows_note,omitempty"` // why the rows have no input and expected output (as ResultPage's)
}

// GridSystem is one column of the grid.
type GridSystem struct {
	System string `json:"system"` // the label
	Run    string `json:"run"`
}

// GridRow is one example.
type GridRow struct {
	Index    int             `json:"index"`
	Input    json.RawMessage `json:"input,omitempty"` // left out when the dataset cannot be read
	Expected json.RawMessage `json:"expected,omitempty"`
	Cells    []GridCell      `json:"cells"`
}

// GridCell is one system's result of one example; Fields marks each dimension right or
// wrong (empty unless valid).
type GridCell struct {
	Status     string          `json:"status"`
	Prediction json.RawMessage `json:"prediction"`
	Score      *float64        `json:"score"`
	Fields     []FieldScore    `json:"fields"`
	Error      *ResultError    `json:"error"`
	// Clipped says Prediction is a JSON string holding the start of a longer prediction
	// and a marker, not the prediction.
	Clipped bool `json:"clipped,omitempty"`
}
