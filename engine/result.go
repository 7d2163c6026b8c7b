package engine

import (
	"encoding/json"

	"github.com/benchy-eval/benchy/diag"
)

// ResultVersion is the version of the result document (A.14).
const ResultVersion = "1.0"

// ExampleResult is one evaluated example, exactly the fields of A.14.
type ExampleResult struct {
	Index        int          `json:"index"`
	Status       Status       `json:"status"`
	Prediction   any          `json:"prediction"`
	FieldScores  []FieldScore `json:"field_scores"`
	Score        *float64     `json:"score"`
	Contribution float64      `json:"contribution"`
	Error        *ResultError `json:"error"`
	Usage        *Usage       `json:"usage,omitempty"` // beside A.14: what a model call cost
	// Request is the request sent to a model, as rendered (Answer.Request), for the store:
	// not in the A.14 document.
	Request string `json:"-"`
	// Row is the example's dataset row as the file wrote it, {"input": ..., "expected": ...}
	// in the file's key order, artifact paths as written (not resolved): the results
	// explorer shows it beside the prediction without reading the dataset again. It is no
	// part of A.14's document, so neither the results stream nor an export's result has
	// it; the store keeps it in its own column. Empty for a result reused from a prior run.
	Row json.RawMessage `json:"-"`
	// Expected is the example's expected output as the engine decoded it (numbers as
	// json.Number), for the store's counts, which would otherwise parse Row again. nil for
	// a result reused from a prior run.
	Expected map[string]any `json:"-"`
}

// Usage is what one call to a model cost, as its provider reported it, and how long it took.
type Usage struct {
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	LatencyMS    float64 `json:"latency_ms"`
	// Cached says the reply came from the workspace's response cache (true) or from the
	// provider with the cache on (false); nil when the run used no cache.
	Cached *bool `json:"cached,omitempty"`
	// CostUSD is what the call cost in US dollars, at the prices the runtime file gives for
	// the model: tokens × price per million / 1e6, not rounded. nil when the model has no
	// price (unknown, not free). A reply replayed from the response cache costs what it
	// cost when it was made, so that a replay's results equal the original's: Cached says
	// it was not paid again (UsageTotals.CachedCostUSD).
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Unreported says the provider's reply gave no token counts (no usage, a usage without
	// them, or counts that cannot be, such as negative ones): the counts above are 0 and
	// there is no cost_usd, since an unknown spending is not a spending of 0. A budget
	// charges such a reply its bound, as a timeout's. Counts above the bound (a provider
	// that over-reports) are kept as reported: they were billed.
	Unreported bool `json:"unreported,omitempty"`
	// BudgetTokens and BudgetCostUSD are what a budget charged a call that did not say what
	// it spent (Unreported, a timeout): its bound, which a resumed run's budget counts again
	// for the reused result. Absent for a call the budget charged what it reported.
	BudgetTokens  int      `json:"budget_tokens,omitempty"`
	BudgetCostUSD *float64 `json:"budget_cost_usd,omitempty"`
}

// CacheCounts are a run's response-cache lookups: examples answered from the cache (hits)
// and examples sent to the provider, or missing from it with --cache only (misses).
type CacheCounts struct {
	Hits   int `json:"hits"`
	Misses int `json:"misses"`
}

// UsageTotals sums Usage over a run's examples that reported it.
type UsageTotals struct {
	Examples     int     `json:"examples"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	LatencyMS    float64 `json:"latency_ms"`
	// CostUSD sums Usage.CostUSD over the examples that have one (PricedExamples of them);
	// nil when none has.
	CostUSD        *float64 `json:"cost_usd,omitempty"`
	PricedExamples int      `json:"priced_examples,omitempty"`
	// CachedCostUSD is the part of CostUSD that replies replayed from the response cache
	// cost when they were made: not paid again by this run. nil when none was.
	CachedCostUSD *float64 `json:"cached_cost_usd,omitempty"`
}

// FieldScore is the exact-match score of one scoring dimension.
type FieldScore struct {
	Path   []string `json:"path"`
	Score  float64  `json:"score"`
	Weight float64  `json:"weight"`
}

// ResultError says why an example has no score: an execution error (Path null), or the
// first value found that does not fit its schema, with the path of keys to it (an invalid
// output; the dataset's values are checked into it too).
type ResultError struct {
	Code    diag.Code `json:"code"`
	Path    []string  `json:"path"`
	Message string    `json:"message"`
}

// Summary counts the examples by status (A.14).
type Summary struct {
	Examples        int `json:"examples"`
	Valid           int `json:"valid"`
	InvalidOutputs  int `json:"invalid_outputs"`
	ExecutionErrors int `json:"execution_errors"`
}

// DimensionAccuracy is the share of valid examples whose field matched.
type DimensionAccuracy struct {
	Path     []string `json:"path"`
	Weight   float64  `json:"weight"`
	Correct  int      `json:"correct"`
	Valid    int      `json:"valid"`
	Accuracy *float64 `json:"accuracy"` // null when no example was valid
}

// Interval is a confidence interval for the benchmark score.
type Interval struct {
	Level  float64 `json:"level"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Method string  `json:"method"`
}

// Report is everything about a run but the per-example results: the A.14 head and what
// Benchy adds beside it. The result document is Report's fields plus "results".
type Report struct {
	Version        string              `json:"version"`
	BenchmarkScore float64             `json:"benchmark_score"`
	Summary        Summary             `json:"summary"`
	IRHash         string              `json:"ir_hash"`
	BenchmarkHash  string              `json:"benchmark_hash,omitempty"` // beside A.14: ir.BenchmarkHash
	DatasetDigest  string              `json:"dataset_digest,omitempty"` // beside A.14: see DigestVersion
	AISystem       any                 `json:"ai_system"`
	System         *System             `json:"system,omitempty"` // beside A.14: the AI-system as run
	Binding        string              `json:"binding"`
	StartedAt      string              `json:"started_at"`
	FinishedAt     string              `json:"finished_at"`
	Dimensions     []DimensionAccuracy `json:"dimensions"`
	Confidence     Interval            `json:"confidence_interval"`
	Concurrency    int                 `json:"concurrency"`
	Limit          int                 `json:"limit,omitempty"`
	Usage          *UsageTotals        `json:"usage,omitempty"` // model runs: tokens and latency summed
	Cache          *CacheCounts        `json:"cache,omitempty"` // model runs with a cache: its hits and misses
	// Stopped says why the run ended before its last example, for a run that ended with a
	// report all the same: its budget (Options.Budget). Nil for a run that did them all.
	Stopped *Stopped `json:"stopped,omitempty"`
	// Shards lists the shards a merged run was run as (benchy merge), in order; none for a
	// run on one machine. Beside it, a merged run's started_at is its first shard's start,
	// finished_at its last shard's end and concurrency the sum of its shards' workers.
	Shards []ShardRun `json:"shards,omitempty"`
}

// ShardRun is one shard of a merged run, as its manifest says it ran.
type ShardRun struct {
	Shard       string `json:"shard"` // "K/N"
	Examples    int    `json:"examples"`
	StartedAt   string `json:"started_at"`
	FinishedAt  string `json:"finished_at"`
	Concurrency int    `json:"concurrency"`
}
