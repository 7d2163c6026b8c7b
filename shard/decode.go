package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// DecodeLine decodes a journal line as the engine decodes values: strict JSON (RFC 8259:
// UTF-8, no duplicate key, no lone surrogate), as the engine writes it, with numbers as
// json.Number, so that a prediction scores again exactly as it did.
//
// The line is read once by engine.DecodeJSON and its fields taken from the value (fromValue),
// a second implementation beside encoding/json that earns its place by the merge's cost:
// an invoice result decodes in about 5 µs here, 10 µs with json.Unmarshal into
// engine.ExampleResult (BenchmarkDecodeLine, a loaded 2-core machine), which was most of a
// million-line merge's time, and it is strict where encoding/json is not. A line the fast path does not know (a field it does not read, a type it does not
// expect) goes through encoding/json, which TestDecodeLineAgrees holds the fast path to.
func DecodeLine(line []byte) (engine.ExampleResult, error) {
	v, err := engine.DecodeJSON(line)
	if err != nil {
		return engine.ExampleResult{}, err
	}
	if res, ok := fromValue(v); ok {
		return res, nil
	}
	return decodeSlow(line)
}

// decodeWithin is DecodeLine for a merge, within max values (engine.Rescorer.MaxValues):
// a line whose prediction holds more (an invalid output an AI-system answered with a large
// array, or a line forged so) keeps its prediction as written, json.RawMessage, which the
// Rescorer reads only as far as the program's types go, and the rest of the line must hold
// no more. Decoded whole, a line of 64 MiB of [0,0,...] took 2.3 GB.
func decodeWithin(line []byte, max int) (engine.ExampleResult, error) {
	if len(line) <= max { // a value takes a byte at least: most lines need no count
		return DecodeLine(line)
	}
	sp, err := engine.SplitPrediction(line)
	switch {
	case err != nil:
		return engine.ExampleResult{}, err
	case sp.Rest > max:
		return engine.ExampleResult{}, fmt.Errorf("it holds %d JSON values beside its prediction, where a result of this benchmark holds at most %d", sp.Rest, max)
	case sp.Prediction <= max:
		return DecodeLine(line)
	}
	res, err := DecodeLine(slices.Concat(line[:sp.Start], []byte("null"), line[sp.End:]))
	if err == nil {
		res.Prediction = json.RawMessage(bytes.Clone(line[sp.Start:sp.End]))
	}
	return res, err
}

// decodeSlow is DecodeLine through encoding/json, the prediction through engine.DecodeJSON
// (json.Number, as the fast path).
func decodeSlow(line []byte) (engine.ExampleResult, error) {
	var l struct {
		engine.ExampleResult
		Prediction json.RawMessage `json:"prediction"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		return engine.ExampleResult{}, err
	}
	res := l.ExampleResult
	if len(l.Prediction) > 0 {
		p, err := engine.DecodeJSON(l.Prediction)
		if err != nil {
			return engine.ExampleResult{}, fmt.Errorf("its prediction: %w", err)
		}
		res.Prediction = p
	}
	return res, nil
}

// errShape is fromValue's "not a line the fast path knows".
var errShape = errors.New("not the shape of a result line")

// fromValue reads a result from a decoded line, as encoding/json would into
// engine.ExampleResult; false for anything it does not know.
func fromValue(v any) (res engine.ExampleResult, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return res, false
	}
	var err error
	for k, x := range m {
		switch k {
		case "index":
			res.Index, err = intOf(x)
		case "status":
			var s string
			s, err = stringOf(x)
			res.Status = engine.Status(s)
		case "prediction":
			res.Prediction = x
		case "field_scores":
			res.FieldScores, err = fieldScoresOf(x)
		case "score":
			res.Score, err = floatPtrOf(x)
		case "contribution":
			res.Contribution, err = floatOf(x)
		case "error":
			res.Error, err = errorOf(x)
		case "usage":
			res.Usage, err = usageOf(x)
		default:
			return res, false
		}
		if err != nil {
			return res, false
		}
	}
	return res, true
}

func intOf(x any) (int, error) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, errShape
	}
	return strconv.Atoi(string(n))
}

func stringOf(x any) (string, error) {
	s, ok := x.(string)
	if !ok {
		return "", errShape
	}
	return s, nil
}

func floatOf(x any) (float64, error) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, errShape
	}
	return strconv.ParseFloat(string(n), 64)
}

func floatPtrOf(x any) (*float64, error) {
	if x == nil {
		return nil, nil
	}
	f, err := floatOf(x)
	return &f, err
}

func pathOf(x any) ([]string, error) {
	if x == nil {
		return nil, nil
	}
	a, ok := x.([]any)
	if !ok {
		return nil, errShape
	}
	out := make([]string, len(a))
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			return nil, errShape
		}
		out[i] = s
	}
	return out, nil
}

func fieldScoresOf(x any) ([]engine.FieldScore, error) {
	if x == nil {
		return nil, nil
	}
	a, ok := x.([]any)
	if !ok {
		return nil, errShape
	}
	out := make([]engine.FieldScore, len(a))
	for i, e := range a {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, errShape
		}
		var err error
		for k, v := range m {
			switch k {
			case "path":
				out[i].Path, err = pathOf(v)
			case "score":
				out[i].Score, err = floatOf(v)
			case "weight":
				out[i].Weight, err = floatOf(v)
			default:
				err = errShape
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func errorOf(x any) (*engine.ResultError, error) {
	if x == nil {
		return nil, nil
	}
	m, ok := x.(map[string]any)
	if !ok {
		return nil, errShape
	}
	var e engine.ResultError
	var err error
	for k, v := range m {
		switch k {
		case "code":
			var s string
			s, err = stringOf(v)
			e.Code = diag.Code(s)
		case "path":
			e.Path, err = pathOf(v)
		case "message":
			e.Message, err = stringOf(v)
		default:
			err = errShape
		}
		if err != nil {
			return nil, err
		}
	}
	return &e, nil
}

// usageOf reads the usage of a model call; one with a field it does not know goes the
// slow way (errShape), so that a field added to engine.Usage is never dropped.
func usageOf(x any) (*engine.Usage, error) {
	if x == nil {
		return nil, nil
	}
	m, ok := x.(map[string]any)
	if !ok {
		return nil, errShape
	}
	var u engine.Usage
	var err error
	for k, v := range m {
		switch k {
		case "input_tokens":
			u.InputTokens, err = intOf(v)
		case "output_tokens":
			u.OutputTokens, err = intOf(v)
		case "latency_ms":
			u.LatencyMS, err = floatOf(v)
		case "cached":
			b, isBool := v.(bool)
			if !isBool {
				return nil, errShape
			}
			u.Cached = &b
		case "cost_usd":
			u.CostUSD, err = floatPtrOf(v)
		case "unreported":
			b, isBool := v.(bool)
			if !isBool {
				return nil, errShape
			}
			u.Unreported = b
		case "budget_tokens":
			u.BudgetTokens, err = intOf(v)
		case "budget_cost_usd":
			u.BudgetCostUSD, err = floatPtrOf(v)
		default:
			err = errShape
		}
		if err != nil {
			return nil, err
		}
	}
	return &u, nil
}
