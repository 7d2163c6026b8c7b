package cli

import (
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// filterSuggestion is what runs export adds to store.CheckFilter's refusal err of the
// filter flags f over the run's IR b: `; did you mean "total"?` for a misspelt --wrong,
// --field, --status, --sort, --expected or --predicted whose value is near an allowed one,
// else "". The store's sentence lists what is allowed; the nearest is the CLI's to say, as
// its other commands do (internal/suggest). Only the flag the refusal names is considered.
func filterSuggestion(f api.Filter, b *ir.Benchmark, err error) string {
	msg := err.Error()
	try := func(key, value string, allowed []string) string {
		if !strings.HasPrefix(msg, "--"+key+" ") || value == "" || slices.Contains(allowed, value) {
			return ""
		}
		if s := suggest.Closest(value, allowed); s != "" {
			return `; did you mean "` + s + `"?`
		}
		return ""
	}
	if s := try(api.QStatus, f.Status, []string{api.Valid, api.InvalidOutput, api.ExecutionError}); s != "" {
		return s
	}
	if s := try(api.QSort, f.Sort, []string{api.SortIndex, api.SortScore}); s != "" {
		return s
	}
	if b == nil {
		return ""
	}
	var dims, enums []string
	var values []string
	for _, d := range b.Scoring.Dimensions {
		dims = append(dims, api.DimensionKey(d.Path))
	}
	for _, e := range store.EnumsOf(b) {
		enums = append(enums, api.DimensionKey(e.Path))
		if api.DimensionKey(e.Path) == f.Field {
			values = e.Values
		}
	}
	for _, c := range []struct {
		key, value string
		allowed    []string
	}{{api.QWrong, f.Wrong, dims}, {api.QField, f.Field, enums}, {api.QExpected, f.Expected, values}, {api.QPredicted, f.Predicted, values}} {
		if s := try(c.key, c.value, c.allowed); s != "" {
			return s
		}
	}
	return ""
}
