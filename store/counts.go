package store

import (
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// The charts of a run are counted as its results are stored, in result_counts (migration
// 6), in the transaction that stores them: Charts then reads some dozens of rows. Counting
// them from indexes at each view took 1.1–1.6 s for 1,000,000 results on 2 loaded cores,
// and a confusion matrix read from every valid result's JSON 6–17 s (BenchmarkCharts).
// Each kind of count has its key in a (and b, c for a confusion cell):
const (
	countStatus   = "status"   // a: the status
	countBin      = "bin"      // a: the valid score's bin, 0..10 (binOf)
	countWrong    = "wrong"    // a: the dimension's index in field_scores
	countCode     = "code"     // a: the error's code; first: its first example
	countCell     = "cell"     // a: the enum's path (JSON), b: expected, c: predicted
	countLabelled = "labelled" // a: an enum's path (JSON) whose cells are counted for every result
)

// EnumsOf are the enum fields of b's program output, in declaration order: what a Writer
// counts confusion cells of (Labels) and the charts and a confusion cell filter ask for:
// every output leaf is a scoring dimension, so these are the enum dimensions.
func EnumsOf(b *ir.Benchmark) []Enum {
	var out []Enum
	for _, l := range b.Program.Output.Leaves() {
		if l.Field.Type == ir.TypeEnum {
			out = append(out, Enum{Path: l.Path, Values: l.Field.Values})
		}
	}
	return out
}

// WriterOption configures a Writer (ResultWriter).
type WriterOption func(*Writer)

// Labels has the Writer count the confusion cells of each enum of enums: the dataset
// row's expected value at its path against the prediction's, for valid results whose two
// values are both of the enum. A run whose results were all stored so has its matrices
// counted; one that stored results before without them (older runs, or a writer without
// Labels) keeps Charts' reading of each result's JSON for them.
func Labels(enums []Enum) WriterOption {
	return func(w *Writer) {
		for _, e := range enums {
			if len(e.Path) == 0 {
				continue // the output is an object: an enum has a member's path
			}
			key, _ := json.Marshal(e.Path)
			w.enums = append(w.enums, labelledEnum{Enum: e, key: string(key)})
		}
	}
}

// labelledEnum is an Enum a Writer counts, with its path as result_counts keys it.
type labelledEnum struct {
	Enum
	key string
}

// binOf is the histogram bin of a valid score, as migration 6 computes it in SQL.
func binOf(c float64) int {
	switch {
	case c >= 1:
		return 10
	case c <= 0:
		return 0
	}
	return min(9, int(c*10))
}

// label is one confusion cell a valid result falls in: its enum (the Writer's) and the
// expected and predicted values.
type label struct {
	enum      int
	exp, pred string
}

// labelsOf are the cells res falls in, of each enum it has both values of.
func labelsOf(enums []labelledEnum, res *engine.ExampleResult) []label {
	if len(enums) == 0 || res.Status != engine.StatusValid {
		return nil
	}
	if res.Expected != nil { // as the engine decoded it: no second parse of the row
		var out []label
		for k, e := range enums {
			exp, ok1 := valueAt(res.Expected, e.Path)
			pred, ok2 := valueAt(res.Prediction, e.Path)
			if ok1 && ok2 && slices.Contains(e.Values, exp) && slices.Contains(e.Values, pred) {
				out = append(out, label{k, exp, pred})
			}
		}
		return out
	}
	if len(res.Row) == 0 {
		return nil
	}
	var row struct { // the expected output's members: one pass over the row
		Expected map[string]json.RawMessage `json:"expected"`
	}
	if json.Unmarshal(res.Row, &row) != nil {
		return nil
	}
	var out []label
	for k, e := range enums {
		exp, ok1 := rawAt(row.Expected[e.Path[0]], e.Path[1:])
		pred, ok2 := valueAt(res.Prediction, e.Path)
		if ok1 && ok2 && slices.Contains(e.Values, exp) && slices.Contains(e.Values, pred) {
			out = append(out, label{k, exp, pred})
		}
	}
	return out
}

// rawAt is the string at path in the JSON value raw.
func rawAt(raw json.RawMessage, path []string) (string, bool) {
	for _, k := range path {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return "", false
		}
		raw = m[k]
	}
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// valueAt is the string at path in a prediction as the engine decoded it.
func valueAt(v any, path []string) (string, bool) {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[k]
	}
	s, ok := v.(string)
	return s, ok
}

// countKey is a row of result_counts without its run.
type countKey struct{ kind, a, b, c string }

// tally is what a batch adds to result_counts: each key's count and first index.
type tally map[countKey]*[2]int

func (t tally) add(k countKey, idx int) {
	if c := t[k]; c != nil {
		c[0]++
		c[1] = min(c[1], idx)
		return
	}
	t[k] = &[2]int{1, idx}
}

// count adds r, a result the batch stores for the first time, and its cells of the enums
// counted.
func (t tally) count(r *row, enums []labelledEnum, counted []bool) {
	t.add(countKey{kind: countStatus, a: r.status}, r.idx)
	if r.status == string(engine.StatusValid) {
		t.add(countKey{kind: countBin, a: strconv.Itoa(binOf(r.contribution))}, r.idx)
	}
	for _, d := range r.wrong {
		t.add(countKey{kind: countWrong, a: strconv.Itoa(d)}, r.idx)
	}
	if code, ok := r.code.(string); ok {
		t.add(countKey{kind: countCode, a: code}, r.idx)
	}
	for _, l := range r.labels {
		if !counted[l.enum] {
			continue
		}
		t.add(countKey{kind: countCell, a: enums[l.enum].key, b: l.exp, c: l.pred}, r.idx)
	}
}

// countChunk is how many counts one upsert carries (7 parameters each).
const countChunk = 400

// store adds t to run id's counts.
func (t tally) store(tx *sql.Tx, id string) error {
	keys := make([]countKey, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	for len(keys) > 0 {
		n := min(len(keys), countChunk)
		args := make([]any, 0, 7*n)
		for _, k := range keys[:n] {
			c := t[k]
			args = append(args, id, k.kind, k.a, k.b, k.c, c[0], c[1])
		}
		q := "INSERT INTO result_counts (run_id, kind, a, b, c, n, first) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", n), ", ") +
			" ON CONFLICT (run_id, kind, a, b, c) DO UPDATE SET n = n + excluded.n, first = min(first, excluded.first)"
		if _, err := tx.Exec(q, args...); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}

// startLabels settles, at a Writer's first commit, which of its enums it counts cells of:
// all of them on a run with no result yet (marked 'labelled'); on a run with results, the
// ones already marked (a resume of a run counted so). Marks of enums the writer does not
// count are dropped, since its results would be missing from them.
func startLabels(tx *sql.Tx, id string, enums []labelledEnum) ([]bool, error) {
	var stored bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM results WHERE run_id = ?)`, id).Scan(&stored); err != nil {
		return nil, err
	}
	marked := map[string]bool{}
	rows, err := tx.Query(`SELECT a FROM result_counts WHERE run_id = ? AND kind = ?`, id, countLabelled)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return nil, err
		}
		marked[a] = true
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	on := make([]bool, len(enums))
	for k, e := range enums {
		switch {
		case !stored:
			if _, err := tx.Exec(`INSERT OR IGNORE INTO result_counts (run_id, kind, a, n, first) VALUES (?, ?, ?, 0, 0)`,
				id, countLabelled, e.key); err != nil {
				return nil, err
			}
			on[k] = true
		case marked[e.key]:
			on[k] = true
		}
		delete(marked, e.key)
	}
	for a := range marked {
		if _, err := tx.Exec(`DELETE FROM result_counts WHERE run_id = ? AND kind = ? AND a = ?`, id, countLabelled, a); err != nil {
			return nil, err
		}
	}
	return on, nil
}
