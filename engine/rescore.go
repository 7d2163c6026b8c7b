package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// Rescorer scores again results read back from outside the engine: the lines of a shard's
// journal, which a merge and the shard's own continued run take in. A line's numbers
// agreeing with each other (ScoreCheck) says nothing of whether its prediction earned
// them, so a result is held to what a run writes: a valid result's prediction is replayed
// through evaluate, the run's own validation and scoring, against its dataset row's
// expected output; so is an invalid output's, which must fail the program's check as its
// error says (unless an adapter declared it, below); an execution error has no prediction;
// every error's code is in the registry; usage is what a call can have reported. A result
// kept is the one a run would have written for that prediction. The dataset is read as the
// validation pass reads it, one row at a time and digested, so memory stays flat and the
// digest the results claim can be checked at the end (Finish).
//
// What it cannot check is where a prediction came from: a line whose prediction is the
// expected output scores 1 whoever wrote it, an execution error's message or an adapter's
// reason for an invalid output (a reply cut off at the token limit, not strict JSON) is
// the adapter's word, and usage is checked for what a call can report, not against the
// runtime file's prices, which the system's hash does not cover and a cached reply does
// not follow.
type Rescorer struct {
	r         *runner
	d         *dataset
	check     *ScoreCheck
	ex        *example // the row last read
	maxValues int
}

// NewRescorer opens the dataset of b, whose file is in benchDir, within paths, as a run
// would: a dataset a run would refuse is its *Abort.
func NewRescorer(b *ir.Benchmark, benchDir string, paths Paths) (*Rescorer, error) {
	d, a := openDataset(b, benchDir, paths, true)
	if a != nil {
		return nil, a
	}
	r := &runner{b: b, opts: Options{RecordRequests: RecordNone}, outputs: outputArtifacts(benchDir)}
	r.weights, r.scale = totalWeight(b)
	return &Rescorer{r: r, d: d, check: NewScoreCheck(b), maxValues: maxValues(b)}, nil
}

// MaxMessage bounds the message of an error nothing can check against its prediction (an
// execution error's, an invalid output an adapter declared): 64 KiB, what an adapter keeps
// of a text it quotes (adapter's maxQuoted and maxErrorBody). The engine's own messages
// are far shorter; an AI-system's own error text (a command's "error", a provider's
// error message) is passed on whole by the adapters, and is to be clipped to it there.
const MaxMessage = 64 << 10

// MaxValues is the most JSON values a result line of the benchmark holds, a prediction
// that is no valid output apart: a valid output has one value per field of the program,
// the field scores a few per dimension, the error and usage a few more. It is 4096 at
// least, so that a small invalid output is decoded whole. A merge decodes a line whole
// only within it; a larger prediction is kept as written (json.RawMessage), which Check
// reads only as far as the program's types go.
func (rs *Rescorer) MaxValues() int { return rs.maxValues }

func maxValues(b *ir.Benchmark) int {
	fields := 0
	var count func(f ir.Field)
	count = func(f ir.Field) {
		fields++
		for _, sub := range f.Fields {
			count(sub)
		}
	}
	count(b.Program.Output)
	depth := 0
	for _, d := range b.Scoring.Dimensions {
		depth = max(depth, len(d.Path))
	}
	return 4096 + 2*fields + len(b.Scoring.Dimensions)*(depth+4) + 2*depth
}

// Check says why res is not the result a run writes for its prediction, or nil. Results
// come in index order (a shard's: every Nth). A problem of the dataset itself is its
// *Abort. A prediction kept as written (json.RawMessage) is read as far as the program's
// types go (view).
func (rs *Rescorer) Check(res *ExampleResult) error {
	if err := rs.check.Check(res); err != nil {
		return err
	}
	if err := checkUsage(res.Usage); err != nil {
		return err
	}
	if err := checkError(res); err != nil {
		return err
	}
	ex, err := rs.row(res.Index)
	if err != nil {
		return err
	}
	if res.Status == StatusInvalidOutput {
		if n := keptSize(res.Prediction); n > MaxKeptPrediction {
			return fmt.Errorf("its invalid output's prediction is %d bytes: a run keeps at most %d KiB of one", n, MaxKeptPrediction>>10)
		}
		if CutPrediction(res.Prediction) {
			return nil // cut by the run that wrote it: its error is taken at the engine's word
		}
	}
	if res.Status == StatusExecutionError || res.Status == StatusInvalidOutput && adapterClaim(res.Error) {
		return nil // no prediction; or one an adapter refused for what the line does not hold
	}
	pred := res.Prediction
	if raw, ok := pred.(json.RawMessage); ok {
		if pred, err = rs.view(raw); err != nil {
			return fmt.Errorf("its prediction: %w", err)
		}
	}
	again := rs.r.evaluate(context.Background(), replay{pred}, ex)
	if res.Status == StatusInvalidOutput {
		got, want := res.Error, again.Error
		switch {
		case again.Status == StatusValid:
			return fmt.Errorf("it claims invalid_output (%s: %s), but its prediction is a valid output of the program", got.Code, clip(got.Message))
		case got.Code != want.Code || !slices.Equal(got.Path, want.Path) || got.Message != want.Message:
			return fmt.Errorf("its error is %s at %s (%s), but its prediction's is %s at %s (%s)",
				got.Code, clip(pathName(got.Path)), clip(got.Message), want.Code, clip(pathName(want.Path)), clip(want.Message))
		}
		return nil
	}
	if again.Status != StatusValid {
		return fmt.Errorf("it is valid, but its prediction is no valid output: %s: %s", again.Error.Code, clip(again.Error.Message))
	}
	for i, f := range again.FieldScores {
		if got := res.FieldScores[i].Score; got != f.Score {
			return fmt.Errorf("its field score of %s is %v, but its prediction scores %v against the dataset's expected output", pathName(f.Path), got, f.Score)
		}
	}
	return nil
}

// adapterClaim reports whether e is the error of an invalid output an adapter declared
// (engine.InvalidOutput: invalid_value at the root, a path check never gives it): its
// reason (a reply cut off, not strict JSON) is not in the prediction, which may even fit
// the program.
func adapterClaim(e *ResultError) bool {
	return e != nil && e.Code == diag.InvalidValue && e.Path != nil && len(e.Path) == 0
}

// checkError says how res's error is not one a run writes, or nil: a code of the registry;
// an execution error without prediction or path; an invalid output's error at a path; a
// message within MaxMessage where nothing else checks it. ScoreCheck has checked that a
// result has an error exactly when it is not valid.
func checkError(res *ExampleResult) error {
	e := res.Error
	if e == nil {
		return nil
	}
	if !diag.Registered(e.Code) {
		return fmt.Errorf("its error code %q is not in the registry: no run writes it", e.Code)
	}
	unchecked := false
	switch res.Status {
	case StatusExecutionError:
		switch {
		case res.Prediction != nil:
			return errors.New("it is execution_error with a prediction: an execution error has none")
		case e.Path != nil:
			return fmt.Errorf("it is execution_error with an error path %v: an execution error has none", e.Path)
		}
		unchecked = true
	case StatusInvalidOutput:
		if e.Path == nil {
			return errors.New("it is invalid_output with no error path: an invalid output's error has one ([] for the whole output)")
		}
		unchecked = adapterClaim(e)
	}
	if unchecked && len(e.Message) > MaxMessage {
		return fmt.Errorf("its error message is %d bytes: no adapter writes one over %d KiB", len(e.Message), MaxMessage>>10)
	}
	return nil
}

// checkUsage says how u is not what a model call can have reported, or nil: token counts
// of 0 or more within the bound the adapters clamp them to (an Anthropic reply's input
// sums three of them), a latency and a cost that are finite and not negative, no cost for
// no tokens (tokens × a price), nothing counted on a reply that reported nothing, and a
// budget's charge that is one.
func checkUsage(u *Usage) error {
	if u == nil {
		return nil
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case u.InputTokens < 0 || u.OutputTokens < 0 || u.InputTokens > 3*MaxBound || u.OutputTokens > MaxBound:
		return fmt.Errorf("its usage counts %d input and %d output tokens: no call reports a negative count, or one past %d", u.InputTokens, u.OutputTokens, MaxBound)
	case !finite(u.LatencyMS) || u.LatencyMS < 0:
		return fmt.Errorf("its usage's latency_ms %v is no duration", u.LatencyMS)
	case u.CostUSD != nil && (!finite(*u.CostUSD) || *u.CostUSD < 0):
		return fmt.Errorf("its usage's cost_usd %v is no cost: tokens × a price of 0 or more", *u.CostUSD)
	case u.CostUSD != nil && *u.CostUSD > 0 && u.InputTokens == 0 && u.OutputTokens == 0:
		return fmt.Errorf("its usage's cost_usd %v is the cost of no tokens", *u.CostUSD)
	case u.Unreported && (u.InputTokens != 0 || u.OutputTokens != 0 || u.CostUSD != nil):
		return errors.New("its usage is unreported, yet counts tokens or a cost")
	case u.BudgetTokens < 0 || u.BudgetTokens > MaxBound:
		return fmt.Errorf("its usage's budget_tokens %d is no budget charge", u.BudgetTokens)
	case u.BudgetCostUSD != nil && (!finite(*u.BudgetCostUSD) || *u.BudgetCostUSD <= 0):
		return fmt.Errorf("its usage's budget_cost_usd %v is no budget charge", *u.BudgetCostUSD)
	}
	return nil
}

// row reads the dataset up to example index.
func (rs *Rescorer) row(index int) (*example, error) {
	for rs.ex == nil || rs.ex.index < index {
		ex := rs.d.next()
		if ex == nil {
			if rs.d.failed != nil {
				return nil, rs.d.failed
			}
			return nil, abort(rs.d.path, rs.d.line, diag.DatasetChanged, []string{"data", "path"}, "the dataset has no example %d: it has %d", index, rs.d.index)
		}
		rs.ex = ex
	}
	if rs.ex.index != index {
		return nil, fmt.Errorf("it is example %d, after example %d", index, rs.ex.index)
	}
	return rs.ex, nil
}

// Finish reads the rest of the dataset and returns its digest and how many examples it
// has, as a run's validation pass does (DatasetDigest).
func (rs *Rescorer) Finish(ctx context.Context) (digest string, rows int, err error) {
	for n := 0; rs.d.next() != nil; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return "", 0, context.Cause(ctx)
		}
	}
	if rs.d.failed != nil {
		return "", 0, rs.d.failed
	}
	if rs.d.index == 0 {
		return "", 0, abort(rs.d.path, 1, diag.InvalidDatasetRecord, nil, "the dataset has no examples")
	}
	return rs.d.digest.sum(), rs.d.index, nil
}

// Close closes the dataset.
func (rs *Rescorer) Close() error { return rs.d.Close() }

// replay is the adapter that answers a result's prediction again, for evaluate.
type replay struct{ out any }

func (p replay) Invoke(context.Context, int, map[string]any) (any, error) { return p.out, nil }
func (p replay) Close() error                                             { return nil }

// Reading a prediction no larger than check reads it: the engine's strict decoder
// (jsonText) with a pass that keeps nothing (skip). A journal line may hold an AI-system's
// answer of 64 MiB, a million-element array that decodes into gigabytes, which no output
// of the program can be (the IR has no lists): check reads only the program's fields, the
// kind of any other value and the first undeclared key in sorted order.

// scan is the strict decoder with a count of the values it read past.
type scan struct {
	jsonText
	n int
}

// view decodes raw, a prediction kept as written, into what check reads of it (shaped):
// the value check gives the same result as it gives the whole, in memory bounded by the
// program. It is strict as DecodeJSON, but for duplicate keys inside what it leaves out,
// which change nothing check reads.
func (rs *Rescorer) view(raw []byte) (any, error) {
	d := scan{jsonText: jsonText{s: string(raw)}}
	d.space()
	v, err := d.shaped(&rs.r.b.Program.Output)
	if err != nil {
		return nil, err
	}
	if d.space(); d.i < len(d.s) {
		return nil, d.fail("the prediction goes on after its JSON value")
	}
	if d.strict != nil {
		return nil, d.strict
	}
	return v, nil
}

// shaped decodes the value at d.i as check reads it against f: an object f declares with
// its declared fields (each shaped by its own field) and, of the keys f does not declare,
// the first in sorted order, the one check names (its value, which check never reads,
// null); an array, or an object where f is no object, as an empty one (check names its
// kind alone); a scalar whole.
func (d *scan) shaped(f *ir.Field) (any, error) {
	switch c := d.peek(); {
	case c == '[':
		return []any{}, d.skip()
	case c == '{' && f.Type != ir.TypeObject:
		return map[string]any{}, d.skip()
	case c == '{':
		return d.shapedObject(f)
	}
	return d.value()
}

func (d *scan) shapedObject(f *ir.Field) (any, error) {
	if d.depth++; d.depth > maxDepth {
		return nil, d.fail("nested too deeply")
	}
	d.i++ // {
	m := map[string]any{}
	extra, hasExtra := "", false
	d.space()
	for d.peek() != '}' {
		if d.peek() != '"' {
			return nil, d.fail("looking for an object key")
		}
		at := d.i
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		if d.space(); d.peek() != ':' {
			return nil, d.fail("looking for ':' after an object key")
		}
		d.i++
		d.space()
		if i := slices.IndexFunc(f.Fields, func(sub ir.Field) bool { return sub.Name == k }); i >= 0 {
			if _, dup := m[k]; dup {
				d.violate(at, "a duplicate key")
			}
			if m[k], err = d.shaped(&f.Fields[i]); err != nil {
				return nil, err
			}
		} else {
			if err := d.skip(); err != nil {
				return nil, err
			}
			if !hasExtra || k < extra {
				extra, hasExtra = k, true
			}
		}
		if d.space(); d.peek() == ',' {
			d.i++
			d.space()
			if d.peek() == '}' {
				return nil, d.fail("looking for an object key")
			}
		} else if d.peek() != '}' {
			return nil, d.fail("looking for ',' or '}' in an object")
		}
	}
	d.i++
	d.depth--
	if hasExtra {
		m[extra] = nil
	}
	return m, nil
}

// skip reads past the value at d.i, held to the rules value holds it to, keeping nothing:
// no allocation per element (but a string's with escapes, dropped at once).
func (d *scan) skip() error {
	d.n++
	switch c := d.peek(); {
	case c == '{' || c == '[':
		return d.skipNested(c)
	case c == '"':
		_, err := d.str()
		return err
	case c == '-' || '0' <= c && c <= '9':
		return d.skipNumber()
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	}
	return d.fail("looking for a JSON value")
}

func (d *scan) skipNested(open byte) error {
	if d.depth++; d.depth > maxDepth {
		return d.fail("nested too deeply")
	}
	end, what := byte(']'), "array"
	if open == '{' {
		end, what = '}', "object"
	}
	d.i++
	d.space()
	for d.peek() != end {
		if open == '{' {
			if d.peek() != '"' {
				return d.fail("looking for an object key")
			}
			if _, err := d.str(); err != nil {
				return err
			}
			if d.space(); d.peek() != ':' {
				return d.fail("looking for ':' after an object key")
			}
			d.i++
			d.space()
		}
		if err := d.skip(); err != nil {
			return err
		}
		if d.space(); d.peek() == ',' {
			d.i++
			d.space()
			if d.peek() == end {
				return d.fail("looking for a value after ',' in an " + what)
			}
		} else if d.peek() != end {
			return d.fail(fmt.Sprintf("looking for ',' or '%c' in an %s", end, what))
		}
	}
	d.i++
	d.depth--
	return nil
}

// skipNumber reads past a number as number does, without making its value.
func (d *scan) skipNumber() error {
	digits := func() int {
		n := d.i
		for d.i < len(d.s) && '0' <= d.s[d.i] && d.s[d.i] <= '9' {
			d.i++
		}
		return d.i - n
	}
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case '1' <= c && c <= '9':
		digits()
	default:
		return d.fail("looking for a digit")
	}
	if d.peek() == '.' {
		d.i++
		if digits() == 0 {
			return d.fail("looking for a digit after the decimal point")
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if digits() == 0 {
			return d.fail("looking for a digit in the exponent")
		}
	}
	return nil
}

// LineSplit is where a result line's prediction lies, line[Start:End] (0, 0 for a line
// without one), and how many JSON values it and the rest of the line hold.
type LineSplit struct {
	Start, End       int
	Prediction, Rest int
}

// SplitPrediction reads a result line without decoding it: where its prediction (the
// value of its top-level "prediction" member) lies, and the values of each part, so that a
// merge decodes whole only a line within MaxValues. A line that is no strict JSON object
// (duplicate keys apart), or that has a member named prediction in another letter case
// (encoding/json would take it for the prediction; the engine never writes one), is an
// error.
func SplitPrediction(line []byte) (LineSplit, error) {
	var sp LineSplit
	d := scan{jsonText: jsonText{s: string(line)}}
	d.space()
	if d.peek() != '{' {
		return sp, d.fail("looking for a result object")
	}
	d.i++
	d.space()
	seen := false
	for d.peek() != '}' {
		if d.peek() != '"' {
			return sp, d.fail("looking for an object key")
		}
		k, err := d.str()
		if err != nil {
			return sp, err
		}
		if d.space(); d.peek() != ':' {
			return sp, d.fail("looking for ':' after an object key")
		}
		d.i++
		d.space()
		at, before := d.i, d.n
		if err := d.skip(); err != nil {
			return sp, err
		}
		if strings.EqualFold(k, "prediction") {
			switch {
			case k != "prediction":
				return sp, fmt.Errorf("a member %q at byte %d: the engine writes \"prediction\"", k, at+1)
			case seen:
				return sp, fmt.Errorf("a second prediction at byte %d", at+1)
			}
			seen, sp.Start, sp.End, sp.Prediction = true, at, d.i, d.n-before
		}
		if d.space(); d.peek() == ',' {
			d.i++
			d.space()
			if d.peek() == '}' {
				return sp, d.fail("looking for an object key")
			}
		} else if d.peek() != '}' {
			return sp, d.fail("looking for ',' or '}' in an object")
		}
	}
	d.i++
	if d.space(); d.i < len(d.s) {
		return sp, d.fail("the line goes on after the JSON value")
	}
	if d.strict != nil {
		return sp, d.strict
	}
	sp.Rest = d.n + 1 - sp.Prediction
	return sp, nil
}
