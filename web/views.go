package web

import (
	"encoding/json"
	"time"
)

// The JSON the pages read from the server's API. They mirror the server's answers (see
// server/routes.go, runs.go, events.go, compare.go and the store, engine and compare
// types) without importing them: the browser app must not link the server. Every field
// may be missing in an answer; the pages show a noValue rather than fail.

// benchView is one entry of GET /api/benchmarks.
type benchView struct {
	Path        string          `json:"path"`
	Valid       bool            `json:"valid"`
	Diagnostics int             `json:"diagnostics"`
	Task        string          `json:"task"`
	Domain      string          `json:"domain"`
	Language    json.RawMessage `json:"language"` // "es" or {"source", "target"}
	IRHash      string          `json:"ir_hash"`
	LastScore   *float64        `json:"last_score"`
	LastRun     string          `json:"last_run"`
}

// benchFileView is GET /api/benchmarks/{path}: the YAML, and its IR when it compiles.
type benchFileView struct {
	Path        string          `json:"path"`
	IR          json.RawMessage `json:"ir"` // null when the benchmark has problems
	IRHash      string          `json:"ir_hash"`
	Diagnostics []diagView      `json:"diagnostics"`
}

// aiSystem is the IR's "ai_system" of a benchmark file, or nil when it has no IR.
func (f benchFileView) aiSystem() *aiSystemView {
	var ir struct {
		AISystem *aiSystemView `json:"ai_system"`
	}
	if len(f.IR) == 0 || json.Unmarshal(f.IR, &ir) != nil {
		return nil
	}
	return ir.AISystem
}

// diagView is a compiler diagnostic.
type diagView struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// aiSystemView is a benchmark's AI-system: an external system (ID) or a model (Provider, Model).
type aiSystemView struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// bindingName is the runtime name the AI-system binds to: the binding of an external
// system, the provider of a model.
func (s aiSystemView) bindingName() string {
	if s.Type == "model" {
		return s.Provider
	}
	return s.ID
}

// bindingsView is GET /api/bindings: names only.
type bindingsView struct {
	Bindings  []string `json:"bindings"`
	Providers []string `json:"providers"`
}

// summaryView counts examples by status.
type summaryView struct {
	Examples        int `json:"examples"`
	Valid           int `json:"valid"`
	InvalidOutputs  int `json:"invalid_outputs"`
	ExecutionErrors int `json:"execution_errors"`
}

// runErrorView is why a run was aborted.
type runErrorView struct {
	File    string `json:"file"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// runView is a run as GET /api/runs and GET /api/runs/{id} show it.
type runView struct {
	ID        string          `json:"id"`
	Benchmark string          `json:"benchmark"`
	IRHash    string          `json:"ir_hash"`
	AISystem  json.RawMessage `json:"ai_system"`
	Binding   string          `json:"binding"`
	Options   struct {
		Limit       int `json:"limit"`
		Concurrency int `json:"concurrency"`
	} `json:"options"`
	Status     string          `json:"status"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at"`
	FinishedAt *time.Time      `json:"finished_at"`
	Total      int             `json:"total"`
	Done       int             `json:"done"`
	Summary    *summaryView    `json:"summary"`
	Report     json.RawMessage `json:"report"`
	Error      *runErrorView   `json:"error"`
	Rate       *float64        `json:"rate"` // examples per second, while running
}

// report decodes the run's report, nil until the run completed.
func (r runView) report() *reportView {
	if len(r.Report) == 0 || string(r.Report) == "null" {
		return nil
	}
	var rep reportView
	if json.Unmarshal(r.Report, &rep) != nil {
		return nil
	}
	return &rep
}

// Run statuses (store.Status).
const (
	stQueued      = "queued"
	stRunning     = "running"
	stCompleted   = "completed"
	stAborted     = "aborted"
	stCancelled   = "cancelled"
	stInterrupted = "interrupted"
)

// runActive reports whether a run with status s may still change.
func runActive(s string) bool { return s == stQueued || s == stRunning }

// runResumable reports whether a run with status s can be resumed.
func runResumable(s string) bool { return s == stInterrupted || s == stCancelled }

// reportView is the part of a completed run's report the pages show.
type reportView struct {
	BenchmarkScore *float64        `json:"benchmark_score"`
	Summary        summaryView     `json:"summary"`
	Dimensions     []dimensionView `json:"dimensions"`
	Confidence     *intervalView   `json:"confidence_interval"`
	Concurrency    int             `json:"concurrency"`
	Limit          int             `json:"limit"`
	Usage          *usageView      `json:"usage"`
}

// dimensionView is one scoring dimension's accuracy among valid examples.
type dimensionView struct {
	Path     []string `json:"path"`
	Weight   float64  `json:"weight"`
	Correct  int      `json:"correct"`
	Valid    int      `json:"valid"`
	Accuracy *float64 `json:"accuracy"`
}

// intervalView is a confidence interval.
type intervalView struct {
	Level  float64 `json:"level"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Method string  `json:"method"`
}

// usageView sums what a model run cost.
type usageView struct {
	Examples     int     `json:"examples"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	LatencyMS    float64 `json:"latency_ms"`
}

// resultView is one example's result (A.14). Input and Expected are shown when the
// server includes them; the results API of this version does not.
type resultView struct {
	Index        int              `json:"index"`
	Status       string           `json:"status"`
	Input        json.RawMessage  `json:"input"`
	Expected     json.RawMessage  `json:"expected"`
	Prediction   json.RawMessage  `json:"prediction"`
	FieldScores  []fieldScoreView `json:"field_scores"`
	Score        *float64         `json:"score"`
	Contribution float64          `json:"contribution"`
	Error        *resultErrorView `json:"error"`
}

// fieldScoreView is the exact-match score of one dimension of one example.
type fieldScoreView struct {
	Path   []string `json:"path"`
	Score  float64  `json:"score"`
	Weight float64  `json:"weight"`
}

// resultErrorView is why an example has no score.
type resultErrorView struct {
	Code    string   `json:"code"`
	Path    []string `json:"path"`
	Message string   `json:"message"`
}

// pageView is GET /api/runs/{id}/results: a page of results, Next the "after" of the
// next page (-1 on the last).
type pageView struct {
	Results []resultView `json:"results"`
	Next    int          `json:"next"`
}

// Example statuses (engine.Status), the values of the results filter.
const (
	exValid          = "valid"
	exInvalidOutput  = "invalid_output"
	exExecutionError = "execution_error"
)

// progressView is the "progress" event of GET /api/runs/{id}/events.
type progressView struct {
	Done    int         `json:"done"`
	Total   int         `json:"total"`
	Summary summaryView `json:"summary"`
	Rate    float64     `json:"rate"`
}

// doneView is the "done" event: where the run ended.
type doneView struct {
	Status         string        `json:"status"`
	Summary        *summaryView  `json:"summary"`
	BenchmarkScore *float64      `json:"benchmark_score"`
	Error          *runErrorView `json:"error"`
}

// comparisonView is GET /api/runs/compare: run B minus run A.
type comparisonView struct {
	A          string           `json:"a"`
	B          string           `json:"b"`
	Examples   int              `json:"examples"`
	ScoreA     float64          `json:"score_a"`
	ScoreB     float64          `json:"score_b"`
	Delta      float64          `json:"delta"`
	Interval   intervalView     `json:"delta_interval"`
	Dimensions []compareDimView `json:"dimensions"`
	Improved   int              `json:"improved"`
	Regressed  int              `json:"regressed"`
	Flips      []flipView       `json:"flips"`
}

// compareDimView compares one dimension's accuracy.
type compareDimView struct {
	Path      []string `json:"path"`
	AccuracyA *float64 `json:"accuracy_a"`
	AccuracyB *float64 `json:"accuracy_b"`
	Delta     *float64 `json:"delta"`
}

// flipView is one example whose outcome changed between the runs.
type flipView struct {
	Index   int     `json:"index"`
	StatusA string  `json:"status_a"`
	StatusB string  `json:"status_b"`
	QA      float64 `json:"contribution_a"`
	QB      float64 `json:"contribution_b"`

	PredictionA json.RawMessage `json:"prediction_a"`
	PredictionB json.RawMessage `json:"prediction_b"`
}

// maxFlips is how many changed examples the server lists at most (compare.MaxFlips).
const maxFlips = 1000
