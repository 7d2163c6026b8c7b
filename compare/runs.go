package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// Refusal is why two runs are not compared: an API error code (all of them 409 Conflict
// at the server) and a sentence for people that names the values that differ.
type Refusal struct {
	Code    api.Code
	Message string
}

func (r *Refusal) Error() string { return r.Message }

func refuse(code api.Code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Comparable says whether runs a and b may be compared, as the server and `benchy runs
// compare` both decide it: nil, or a *Refusal. Two completed runs are comparable when
// they took one benchmark (benchmark_hash: program, scoring, classification) on one
// dataset (dataset_digest), whatever their AI-systems, and the same number of examples.
func Comparable(a, b store.Run) error {
	for _, r := range []store.Run{a, b} {
		if r.Status != store.Completed {
			return refuse(api.NotCompleted, "run %s is %s; only completed runs are compared", r.ID, r.Status)
		}
	}
	if a.BenchmarkHash != b.BenchmarkHash || a.BenchmarkHash == "" {
		return refuse(api.DifferentBenchmarks, "the runs are of different benchmarks (program, scoring or classification): "+
			"run %s has benchmark %s, run %s has %s; only runs of one benchmark are compared",
			a.ID, shortHash(a.BenchmarkHash, "not recorded"), b.ID, shortHash(b.BenchmarkHash, "not recorded"))
	}
	if a.DatasetDigest == "" || b.DatasetDigest == "" {
		var which []string
		for _, r := range []store.Run{a, b} {
			if r.DatasetDigest == "" {
				which = append(which, "run "+r.ID)
			}
		}
		return refuse(api.DifferentDatasets, "%s: dataset not recorded (stored by an older benchy), so the runs cannot be shown to have "+
			"taken the same exam; run the benchmark again to compare", strings.Join(which, " and "))
	}
	if a.DatasetDigest != b.DatasetDigest {
		return refuse(api.DifferentDatasets, "the runs took different datasets (the data or an artifact changed between them): "+
			"run %s has dataset %s, run %s has %s", a.ID, shortHash(a.DatasetDigest, ""), b.ID, shortHash(b.DatasetDigest, ""))
	}
	if na, nb := examples(a), examples(b); na >= 0 && nb >= 0 && na != nb {
		return refuse(api.DifferentLengths, "the runs hold different numbers of examples: run %s has %d, run %s has %d (one used --limit?)",
			a.ID, na, b.ID, nb)
	}
	return nil
}

// shortHash is a hash's "sha256:" and first 12 hex digits, or none when it is "".
func shortHash(h, none string) string {
	if h == "" {
		return none
	}
	hex, ok := strings.CutPrefix(h, "sha256:")
	if ok && len(hex) > 12 {
		return "sha256:" + hex[:12]
	}
	return h
}

// examples is how many examples a completed run's summary counts, -1 when it has none.
func examples(r store.Run) int {
	if r.Summary == nil {
		return -1
	}
	return r.Summary.Examples
}

// Load reads runs a and b and checks they are comparable: an error wrapping
// store.ErrNotFound for an unknown run, a *Refusal for runs that are not comparable.
func Load(st *store.Store, a, b string) ([2]store.Run, error) {
	var runs [2]store.Run
	for i, id := range []string{a, b} {
		r, err := st.Peek(id)
		if err != nil {
			return runs, err
		}
		runs[i] = r
	}
	return runs, Comparable(runs[0], runs[1])
}

// Runs compares run b with run a (b minus a) from their stored results, as
// GET /api/runs/compare answers: a *Refusal for runs that are not comparable, or whose
// results do not line up.
func Runs(st *store.Store, a, b string) (api.Comparison, error) {
	runs, err := Load(st, a, b)
	if err != nil {
		return api.Comparison{}, err
	}
	return Read(st, runs)
}

// Read compares two comparable runs (as Load returns them) from their stored results,
// each read as pages show it (store.AllShown): a flip's predictions are their starts and a
// marker beyond store.MaxShown, never the whole answer (up to 64 MiB each; 56 flips of
// 4 MB predictions were a 224 MB answer).
func Read(st *store.Store, runs [2]store.Run) (api.Comparison, error) {
	nextA, stopA := iter.Pull2(st.AllShown(runs[0].ID))
	defer stopA()
	nextB, stopB := iter.Pull2(st.AllShown(runs[1].ID))
	defer stopB()
	var c Comparer
	for {
		sa, errA, okA := nextA()
		sb, errB, okB := nextB()
		if err := errors.Join(errA, errB); err != nil {
			return api.Comparison{}, err
		}
		if okA != okB {
			return api.Comparison{}, refuse(api.DifferentLengths, "the runs hold different numbers of stored results")
		}
		if !okA {
			break
		}
		ra, errA := result(sa)
		rb, errB := result(sb)
		if err := errors.Join(errA, errB); err != nil {
			return api.Comparison{}, err
		}
		if err := c.Add(ra, rb); err != nil {
			return api.Comparison{}, refuse(api.OutOfStep, "%s", err.Error())
		}
	}
	return Wire(runs[0].ID, runs[1].ID, c.Result())
}

// result is what a comparison needs of a shown result, its prediction decoded as the
// store decodes a stored one (numbers kept as their text).
func result(sh store.Shown) (engine.ExampleResult, error) {
	r := engine.ExampleResult{Index: sh.Index, Status: sh.Status, Score: sh.Score, Contribution: sh.Contribution, Error: sh.Error}
	dec := json.NewDecoder(bytes.NewReader(sh.Prediction))
	dec.UseNumber()
	if err := errors.Join(dec.Decode(&r.Prediction), json.Unmarshal(sh.FieldScores, &r.FieldScores)); err != nil {
		return r, fmt.Errorf("result %d: %w", sh.Index, err)
	}
	return r, nil
}

// Wire is run b compared with run a as the API sends it. Comparison and api.Comparison
// hold the same fields; this package keeps its own, with the engine's types, because the
// api package cannot import the engine (it links into the browser's WebAssembly).
func Wire(a, b string, c Comparison) (api.Comparison, error) {
	out := api.Comparison{A: a, B: b, Examples: c.Examples, ScoreA: c.ScoreA, ScoreB: c.ScoreB, Delta: c.Delta,
		Interval: api.Interval(c.Interval), Improved: c.Improved, Regressed: c.Regressed}
	if c.Dimensions != nil {
		out.Dimensions = make([]api.CompareDimension, len(c.Dimensions))
	}
	if c.Flips != nil {
		out.Flips = make([]api.Flip, len(c.Flips))
	}
	for i, d := range c.Dimensions {
		out.Dimensions[i] = api.CompareDimension(d)
	}
	for i, f := range c.Flips {
		pa, errA := json.Marshal(f.PredictionA)
		pb, errB := json.Marshal(f.PredictionB)
		if err := errors.Join(errA, errB); err != nil {
			return api.Comparison{}, err
		}
		out.Flips[i] = api.Flip{Index: f.Index, StatusA: string(f.StatusA), StatusB: string(f.StatusB), QA: f.QA, QB: f.QB,
			PredictionA: pa, PredictionB: pb}
	}
	return out, nil
}
