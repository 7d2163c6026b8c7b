package cli

import (
	"flag"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// `benchy runs export` honours the results filter of the explorer (GET
// /api/runs/{id}/results?status=...&format=csv): the same keys as flags, each value checked
// against the run's IR as the server checks it, the same store query (store.ExportRows).

// exportFilter is the filter flags of runs export, named as the API's query keys.
type exportFilter struct {
	f     api.Filter
	given func(name string) bool
}

func (f *exportFilter) define(fs *flag.FlagSet) {
	fs.StringVar(&f.f.Status, api.QStatus, "", "only results of this `STATUS`: valid, invalid_output or execution_error")
	fs.BoolVar(&f.f.Imperfect, api.QImperfect, false, "only results whose contribution is below 1")
	fs.StringVar(&f.f.Wrong, api.QWrong, "", "only valid results whose dimension `DIM` (a path such as total or address.city) scored 0")
	fs.StringVar(&f.f.Code, api.QCode, "", "only results whose error has this `CODE` (provider_error, say)")
	fs.StringVar(&f.f.Text, api.QText, "", "only results whose input, expected output, prediction or error message holds `TEXT`")
	fs.StringVar(&f.f.Field, api.QField, "", "with --expected and --predicted: one cell of the confusion matrix of the enum dimension `DIM`")
	fs.StringVar(&f.f.Expected, api.QExpected, "", "the cell's expected `VALUE`")
	fs.StringVar(&f.f.Predicted, api.QPredicted, "", "the cell's predicted `VALUE`")
	fs.StringVar(&f.f.ScoreMin, flagName(api.QScoreMin), "", "only valid results whose score is at least `MIN` (0 to 1)")
	fs.StringVar(&f.f.ScoreMax, flagName(api.QScoreMax), "", "only valid results whose score is below `MAX` (0 to 1; 1 takes a score of 1 too, and --score-min 1 --score-max 1 is exactly 1)")
	fs.StringVar(&f.f.Sort, api.QSort, api.SortIndex, "order of the results: index, or score (contribution ascending, then index)")
	f.given = func(key string) bool { return flagGiven(fs, flagName(key)) }
}

// flagName is the flag of an API query key: score_min is --score-min.
func flagName(key string) string { return strings.ReplaceAll(key, "_", "-") }

// checked is the filter as the store takes it, its values checked against the run's IR b
// as the server checks its query (store.CheckFilter); b is nil when the store has none
// readable, and then --wrong and a cell are refused. A refusal says what is allowed.
func (f *exportFilter) checked(b *ir.Benchmark) (store.ResultFilter, error) {
	return store.CheckFilter(f.f, b, f.given, func(key string) string { return "--" + flagName(key) })
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
