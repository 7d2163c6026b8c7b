package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// open opens a fresh store in a test directory.
func open(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".benchy", "benchy.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

var testIR = json.RawMessage(`{"version":"1.0","benchmark":{"task":"extract"}}`)

func spec(bench string) RunSpec {
	return RunSpec{
		Benchmark: bench, IR: testIR, IRHash: "sha256:" + bench,
		AISystem: map[string]any{"type": "external", "id": "invoice-extractor-v7"},
		Binding:  "local", Options: Options{Limit: 10, Concurrency: 4},
	}
}

func create(t testing.TB, s *Store, bench string) Run {
	t.Helper()
	r, err := s.CreateRun(spec(bench))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// example is a realistic result of the invoice benchmark: mostly valid, some invalid
// outputs (every 13th), some execution errors (every 29th).
func example(i int) engine.ExampleResult {
	dims := [][]string{{"invoice_number"}, {"date"}, {"supplier"}, {"subtotal"}, {"total"}}
	switch {
	case i%29 == 7:
		return engine.ExampleResult{Index: i, Status: engine.StatusExecutionError,
			Error: &engine.ResultError{Code: diag.Timeout, Message: "the AI-system did not answer in time"},
			Usage: &engine.Usage{InputTokens: 812, LatencyMS: 30000}}
	case i%13 == 5:
		return engine.ExampleResult{Index: i, Status: engine.StatusInvalidOutput,
			Prediction: map[string]any{"invoice_number": fmt.Sprintf("F-%06d", i), "total": "ciento veinte <eur> & más"},
			Error: &engine.ResultError{Code: diag.InvalidValue, Path: []string{"total"},
				Message: `expected a float, got the string "ciento veinte"`},
			Usage: &engine.Usage{InputTokens: 812, OutputTokens: 64, LatencyMS: 912.5}}
	}
	score := float64(4+i%2) / 5
	fs := make([]engine.FieldScore, len(dims))
	for d, p := range dims {
		fs[d] = engine.FieldScore{Path: p, Score: 1, Weight: 1}
	}
	if i%2 == 0 {
		fs[4].Score = 0
	}
	return engine.ExampleResult{
		Index: i, Status: engine.StatusValid,
		Prediction: map[string]any{
			"invoice_number": fmt.Sprintf("F-%06d", i),
			"date":           fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28),
			"supplier":       "Acme S.L.",
			"subtotal":       json.Number(fmt.Sprintf("%d.5", 100+i%900)),
			"total":          json.Number(fmt.Sprintf("%d.21", 121+i%900)),
		},
		FieldScores: fs, Score: &score, Contribution: score,
		Usage: &engine.Usage{InputTokens: 812, OutputTokens: 64, LatencyMS: 731.25},
	}
}

// summaryOf counts the statuses of examples 0 to n-1.
func summaryOf(n int) engine.Summary {
	sum := engine.Summary{Examples: n}
	for i := range n {
		switch example(i).Status {
		case engine.StatusValid:
			sum.Valid++
		case engine.StatusInvalidOutput:
			sum.InvalidOutputs++
		case engine.StatusExecutionError:
			sum.ExecutionErrors++
		}
	}
	return sum
}

// write stores the results of examples lo..hi-1 through one Writer.
func write(t testing.TB, s *Store, id string, lo, hi int) {
	t.Helper()
	w := s.ResultWriter(id)
	for i := lo; i < hi; i++ {
		if err := w.Add(example(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// encoded is a result as encoding/json writes it, HTML escaping off (as stored).
func encoded(t testing.TB, res engine.ExampleResult) string {
	t.Helper()
	b, err := marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// marshal encodes a result as the engine's results stream has it.
func marshal(res engine.ExampleResult) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
