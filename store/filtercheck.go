package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// MaxSearch bounds a results search (api.Filter.Text): a longer one is refused, not cut.
const MaxSearch = 1 << 10

// maxCode bounds an error code a filter names.
const maxCode = 256

// CheckFilter checks the results filter f against the IR b of the run it filters, and
// returns it as the store takes it: the one check of the API's query (GET
// /api/runs/{id}/results?wrong=...) and of the CLI's flags (benchy runs export --wrong ...).
// given reports whether a key (api.QWrong, ...) was named at all: an empty wrong or code is
// refused, and so is one key of a confusion cell without the other two. A refusal says what
// is allowed, naming each key as name spells it for the caller ("wrong", "--wrong"). A nil
// b (a run whose IR cannot be read) refuses what needs it: a dimension, a confusion cell.
func CheckFilter(f api.Filter, b *ir.Benchmark, given func(key string) bool, name func(key string) string) (ResultFilter, error) {
	out := ResultFilter{Status: engine.Status(f.Status), Imperfect: f.Imperfect, Code: f.Code, Text: f.Text}
	switch f.Status {
	case "", api.Valid, api.InvalidOutput, api.ExecutionError:
	default:
		return out, fmt.Errorf("%s is valid, invalid_output or execution_error, not %q", name(api.QStatus), clip(f.Status))
	}
	if given(api.QCode) && f.Code == "" {
		return out, fmt.Errorf("%s is empty: give an error code (provider_error, say), or leave it out", name(api.QCode))
	}
	if len(f.Code) > maxCode {
		return out, fmt.Errorf("%s is %d bytes: an error code is at most %d", name(api.QCode), len(f.Code), maxCode)
	}
	if len(f.Text) > MaxSearch {
		return out, fmt.Errorf("%s is %d bytes: a search is at most %d", name(api.QText), len(f.Text), MaxSearch)
	}
	switch f.Sort {
	case "", api.SortIndex:
	case api.SortScore:
		out.ByScore = true
	default:
		return out, fmt.Errorf("%s is index or score, not %q", name(api.QSort), clip(f.Sort))
	}
	if given(api.QScoreMin) || given(api.QScoreMax) {
		r, err := checkScoreRange(f, given, name)
		if err != nil {
			return out, err
		}
		out.Score = r
	}
	needsIR := given(api.QWrong) || given(api.QField) || given(api.QExpected) || given(api.QPredicted)
	if needsIR && b == nil {
		return out, fmt.Errorf("the run's benchmark cannot be read, so %s and %s cannot be checked", name(api.QWrong), name(api.QField))
	}
	if given(api.QWrong) {
		var dims []string
		for _, d := range b.Scoring.Dimensions {
			dims = append(dims, api.DimensionKey(d.Path))
			if api.DimensionKey(d.Path) == f.Wrong {
				out.Wrong = d.Path
			}
		}
		if out.Wrong == nil {
			return out, fmt.Errorf("%s %q is not a dimension of this run's benchmark; its dimensions are %s", name(api.QWrong), clip(f.Wrong), strings.Join(dims, ", "))
		}
	}
	if given(api.QField) || given(api.QExpected) || given(api.QPredicted) {
		cell, err := checkCell(f, b, given, name)
		if err != nil {
			return out, err
		}
		out.Cell = cell
	}
	return out, nil
}

// checkScoreRange checks a score range of f: each bound given a number in [0, 1], the
// minimum below the maximum but for 1 and 1 (exactly 1: the histogram's perfect bar).
func checkScoreRange(f api.Filter, given func(string) bool, name func(string) string) (*ScoreRange, error) {
	r := &ScoreRange{Min: 0, Max: 1}
	for _, b := range []struct {
		key, text string
		to        *float64
	}{{api.QScoreMin, f.ScoreMin, &r.Min}, {api.QScoreMax, f.ScoreMax, &r.Max}} {
		if !given(b.key) {
			continue
		}
		v, err := strconv.ParseFloat(b.text, 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("%s is a number from 0 to 1, not %q", name(b.key), clip(b.text))
		}
		*b.to = v
	}
	if r.Min >= r.Max && !(r.Min == 1 && r.Max == 1) {
		return nil, fmt.Errorf("%s %v is not below %s %v: a score range is min ≤ score < max (max 1 takes 1 too; 1 and 1 is exactly 1)",
			name(api.QScoreMin), r.Min, name(api.QScoreMax), r.Max)
	}
	return r, nil
}

// checkCell checks a confusion cell of f: an enum dimension of b and two of its values.
func checkCell(f api.Filter, b *ir.Benchmark, given func(string) bool, name func(string) string) (*Cell, error) {
	if !given(api.QField) || !given(api.QExpected) || !given(api.QPredicted) {
		return nil, fmt.Errorf("a confusion cell is %s, %s and %s together", name(api.QField), name(api.QExpected), name(api.QPredicted))
	}
	var names []string
	var cell *Cell
	var values []string
	for _, e := range EnumsOf(b) {
		names = append(names, api.DimensionKey(e.Path))
		if api.DimensionKey(e.Path) == f.Field {
			cell, values = &Cell{Path: e.Path, Expected: f.Expected, Predicted: f.Predicted}, e.Values
		}
	}
	switch {
	case len(names) == 0:
		return nil, fmt.Errorf("%s %q: this run's benchmark has no enum dimension, so no confusion matrix", name(api.QField), clip(f.Field))
	case cell == nil:
		return nil, fmt.Errorf("%s %q is not an enum dimension of this run's benchmark; its enum dimensions are %s", name(api.QField), clip(f.Field), strings.Join(names, ", "))
	case !slices.Contains(values, f.Expected):
		return nil, fmt.Errorf("%s %q is not a value of %s (%s)", name(api.QExpected), clip(f.Expected), f.Field, strings.Join(values, ", "))
	case !slices.Contains(values, f.Predicted):
		return nil, fmt.Errorf("%s %q is not a value of %s (%s)", name(api.QPredicted), clip(f.Predicted), f.Field, strings.Join(values, ", "))
	}
	return cell, nil
}

// clip is a value as a refusal quotes it: 200 bytes at most.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
