package server

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// maxSearch bounds the text search (?q=): a longer one is refused, not cut.
const maxSearch = 1 << 10

// filterKeys are the results filter's query keys, each of which may be given once.
var filterKeys = []string{api.QStatus, api.QImperfect, api.QWrong, api.QCode, api.QText, api.QField, api.QExpected, api.QPredicted, api.QSort}

// checkedFilter reads the results filter of query q (api.FilterOf) and checks each value
// against the run's IR b: a status, a dimension, an enum dimension and its values that it
// has, a sort it knows. A refusal says what is allowed.
func checkedFilter(q url.Values, b *ir.Benchmark) (api.Filter, error) {
	bad := func(format string, args ...any) (api.Filter, error) {
		return api.Filter{}, refuse(http.StatusBadRequest, api.BadRequest, format, args...)
	}
	for _, k := range filterKeys {
		if len(q[k]) > 1 {
			return bad("?%s= is given %d times: name it once", k, len(q[k]))
		}
	}
	f := api.FilterOf(q)
	switch f.Status {
	case "", api.Valid, api.InvalidOutput, api.ExecutionError:
	default:
		return bad("status is valid, invalid_output or execution_error, not %q", clipName(f.Status))
	}
	if v := q.Get(api.QImperfect); v != "" && v != "1" {
		return bad("imperfect is 1 (results whose contribution is below 1) or left out, not %q", clipName(v))
	}
	dims := make([]string, len(b.Scoring.Dimensions))
	for i, d := range b.Scoring.Dimensions {
		dims[i] = api.DimensionKey(d.Path)
	}
	if q.Has(api.QWrong) && !slices.Contains(dims, f.Wrong) {
		return bad("wrong=%q is not a dimension of this run's benchmark; its dimensions are %s", clipName(f.Wrong), strings.Join(dims, ", "))
	}
	if q.Has(api.QCode) && f.Code == "" {
		return bad("code= is empty: give an error code (provider_error, say), or leave it out")
	}
	if len(f.Code) > 256 {
		return bad("code is %d bytes: an error code is at most 256", len(f.Code))
	}
	if len(f.Text) > maxSearch {
		return bad("q is %d bytes: a search is at most %d", len(f.Text), maxSearch)
	}
	if q.Has(api.QField) || q.Has(api.QExpected) || q.Has(api.QPredicted) {
		enums := enumDimensions(b)
		var names []string
		var values []string
		for _, l := range enums {
			names = append(names, api.DimensionKey(l.Path))
			if api.DimensionKey(l.Path) == f.Field {
				values = l.Field.Values
			}
		}
		switch {
		case !q.Has(api.QField) || !q.Has(api.QExpected) || !q.Has(api.QPredicted):
			return bad("a confusion cell is field, expected and predicted together")
		case len(enums) == 0:
			return bad("field=%q: this run's benchmark has no enum dimension, so no confusion matrix", clipName(f.Field))
		case values == nil:
			return bad("field=%q is not an enum dimension of this run's benchmark; its enum dimensions are %s", clipName(f.Field), strings.Join(names, ", "))
		case !slices.Contains(values, f.Expected):
			return bad("expected=%q is not a value of %s (%s)", clipName(f.Expected), f.Field, strings.Join(values, ", "))
		case !slices.Contains(values, f.Predicted):
			return bad("predicted=%q is not a value of %s (%s)", clipName(f.Predicted), f.Field, strings.Join(values, ", "))
		}
	}
	switch f.Sort {
	case "", api.SortIndex, api.SortScore:
	default:
		return bad("sort is index or score, not %q", clipName(f.Sort))
	}
	return f, nil
}

// enumDimensions are the output leaves of b that are enums and scoring dimensions, in
// declaration order: the confusion matrices.
func enumDimensions(b *ir.Benchmark) []ir.Leaf {
	var out []ir.Leaf
	for _, l := range b.Program.Output.Leaves() {
		if l.Field.Type != ir.TypeEnum {
			continue
		}
		for _, d := range b.Scoring.Dimensions {
			if slices.Equal(d.Path, l.Path) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// storeFilter is a checked filter f (checkedFilter) as the store takes it, its
// dimensions as the paths of b.
func storeFilter(f api.Filter, b *ir.Benchmark) store.ResultFilter {
	out := store.ResultFilter{Status: engine.Status(f.Status), Imperfect: f.Imperfect, Code: f.Code, Text: f.Text, ByScore: f.Sort == api.SortScore}
	for _, d := range b.Scoring.Dimensions {
		if f.Wrong != "" && api.DimensionKey(d.Path) == f.Wrong {
			out.Wrong = d.Path
		}
		if f.Field != "" && api.DimensionKey(d.Path) == f.Field {
			out.Cell = &store.Cell{Path: d.Path, Expected: f.Expected, Predicted: f.Predicted}
		}
	}
	return out
}
