package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// `benchy runs export` honours the results filter of the explorer (GET
// /api/runs/{id}/results?status=...&format=csv): the same keys as flags, each value checked
// against the run's IR as the server checks it, the same store query (store.ExportRows).

// maxExportSearch bounds --q, as the server bounds ?q=.
const maxExportSearch = 1 << 10

// exportFilter is the filter flags of runs export.
type exportFilter struct {
	status, wrong, code, text, sort string
	imperfect                       bool
	given                           func(name string) bool
}

func (f *exportFilter) define(fs *flag.FlagSet) {
	fs.StringVar(&f.status, "status", "", "only results of this `STATUS`: valid, invalid_output or execution_error")
	fs.BoolVar(&f.imperfect, "imperfect", false, "only results whose contribution is below 1")
	fs.StringVar(&f.wrong, "wrong", "", "only valid results whose dimension `DIM` (a path such as total or address.city) scored 0")
	fs.StringVar(&f.code, "code", "", "only results whose error has this `CODE` (provider_error, say)")
	fs.StringVar(&f.text, "q", "", "only results whose input, expected output, prediction or error message holds `TEXT`")
	fs.StringVar(&f.sort, "sort", api.SortIndex, "order of the results: index, or score (contribution ascending, then index)")
	f.given = func(name string) bool { return flagGiven(fs, name) }
}

// checked is the filter as the store takes it, its values checked against the run's IR b
// (nil when the store has none readable: the dimension then cannot be checked, and --wrong
// is refused); a refusal says what is allowed.
func (f *exportFilter) checked(b *ir.Benchmark) (store.ResultFilter, error) {
	out := store.ResultFilter{Status: engine.Status(f.status), Imperfect: f.imperfect, Code: f.code, Text: f.text}
	switch f.status {
	case "", api.Valid, api.InvalidOutput, api.ExecutionError:
	default:
		return out, fmt.Errorf("--status is valid, invalid_output or execution_error, not %q", f.status)
	}
	if f.given("code") && f.code == "" {
		return out, fmt.Errorf("--code is empty: give an error code (provider_error, say), or leave it out")
	}
	if len(f.code) > 256 {
		return out, fmt.Errorf("--code is %d bytes: an error code is at most 256", len(f.code))
	}
	if len(f.text) > maxExportSearch {
		return out, fmt.Errorf("--q is %d bytes: a search is at most %d", len(f.text), maxExportSearch)
	}
	switch f.sort {
	case api.SortIndex:
	case api.SortScore:
		out.ByScore = true
	default:
		return out, fmt.Errorf("--sort is index or score, not %q", f.sort)
	}
	if f.given("wrong") {
		var dims []string
		if b != nil {
			for _, d := range b.Scoring.Dimensions {
				dims = append(dims, api.DimensionKey(d.Path))
				if api.DimensionKey(d.Path) == f.wrong {
					out.Wrong = d.Path
				}
			}
		}
		if !slices.Contains(dims, f.wrong) || f.wrong == "" {
			return out, fmt.Errorf("--wrong %q is not a dimension of this run's benchmark; its dimensions are %s", f.wrong, strings.Join(dims, ", "))
		}
	}
	return out, nil
}

// exportQuery is the export of the results q selects, with the CSV's input.x, expected.y
// and prediction.y columns of b's leaves in declaration order (none without an IR).
func exportQuery(q store.ResultFilter, b *ir.Benchmark) store.ExportQuery {
	eq := store.ExportQuery{Filter: q}
	if b == nil {
		return eq
	}
	for _, l := range b.Program.Input.Leaves() {
		eq.Input = append(eq.Input, l.Path)
	}
	for _, l := range b.Program.Output.Leaves() {
		eq.Output = append(eq.Output, l.Path)
	}
	return eq
}
