package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// stdDecode is what the dataset reader must agree with: encoding/json with UseNumber, one
// value and nothing after it.
func stdDecode(line []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one value")
	}
	return v, nil
}

// strictValid is the strict oracle: go-json-experiment's jsontext, which by default refuses
// invalid UTF-8, lone surrogate escapes and duplicate names (RFC 8259 §8.1, §8.2, §4; RFC
// 7493).
func strictValid(line []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(line))
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return errors.New("more than one value")
	}
	return nil
}

// jsonTexts are lines the dataset reader must treat as encoding/json does, except that a
// text the strict oracle refuses is a *StrictError.
var jsonTexts = []string{
	`{"input": {"text": "t"}, "expected": {"n": 1}}`,
	`  {"a":1}  `, "\t{\"a\":1}\r", `{}`, `[]`, `[1,[2,[3,{}]]]`, `{"a":{"b":{"c":[]}}}`,
	`null`, `true`, `false`, `0`, `-0`, `-0.0e+0`, `1E9`, `1e-9`, `123456789012345678901234567890`,
	`"plain"`, `""`, `"é 東京 🎉"`, `"\u00e9\u6771"`, `"\"\\\/\b\f\n\r\t"`, `"\ud83c\udf89"`,
	`"\ud83c"`, `"\udf89"`, `"\ud83c\u0041"`, `"\ud83c\ud83c\udf89"`, `"\ud83cx"`, `"a\ufffdb"`,
	"\"\xff\"", "\"a\xc3\"", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbd\"", "{\"k\xff\":1}", "\"\xff\\n\"",
	`{"a":1,"a":2}`, `{"a":1,"b":[true,false,null]}`,
	// Not JSON.
	``, ` `, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a" 1}`, `{'a':1}`,
	`{a:1}`, `01`, `-`, `1.`, `.5`, `+1`, `1e`, `1e+`, `0x10`, `NaN`, `Infinity`, `tru`, `nul`,
	`truex`, `nulll`, `"unterminated`, `"bad \x"`, `"\'"`, `"\u12"`, `"\u12G4"`, "\"tab\there\"",
	"\"nl\nhere\"", `{} {}`, `{}x`, `1 2`, `[1] [2]`, `{"a":1}}`, `"a""b"`, "\xef\xbb\xbf{}",
	"{\"a\":1}\v", "\u00a0{}", `[[[[[[[[[[]]]]]]]]]]`, `[[[[[[[[[[]]]]]]]]]`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

// TestDecodeJSONAgrees: the dataset reader's JSON decoder refuses as syntax errors exactly
// what encoding/json refuses, as strictness errors exactly what jsontext alone refuses, and
// decodes the same values as encoding/json.
func TestDecodeJSONAgrees(t *testing.T) {
	for _, text := range jsonTexts {
		agree(t, []byte(text))
	}
}

func agree(t *testing.T, line []byte) {
	t.Helper()
	want, wantErr := stdDecode(line)
	got, err := decodeStrict(line)
	var strict *StrictError
	switch {
	case wantErr != nil:
		if err == nil || errors.As(err, &strict) {
			t.Fatalf("%q: decodeStrict error %v, encoding/json error %v", clip(string(line)), err, wantErr)
		}
		return
	case strictValid(line) != nil:
		if !errors.As(err, &strict) {
			t.Fatalf("%q: decodeStrict error %v, want a strictness error (jsontext: %v)", clip(string(line)), err, strictValid(line))
		}
	case err != nil:
		t.Fatalf("%q: decodeStrict error %v, want none", clip(string(line)), err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decodeStrict = %#v, encoding/json = %#v", clip(string(line)), got, want)
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, text := range jsonTexts[:len(jsonTexts)-1] {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, line []byte) { agree(t, line) })
}

// stdEncode is how encoding/json writes a result line.
func stdEncode(res *ExampleResult) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(res)
	return b.Bytes(), err
}

// TestAppendResultAgrees: the results stream is byte for byte what encoding/json writes.
func TestAppendResultAgrees(t *testing.T) {
	one, zero := 1.0, 0.0
	tricky := "<a href=\"x\">&amp;</a> \\ \x00\x01\x1f\x7f é \u2028\u2029 \xff\xc3 🎉"
	results := []ExampleResult{
		{Index: 0, Status: StatusValid, Prediction: map[string]any{"total": json.Number("121.0"), "date": "2026-01-01", "b": true, "z": nil},
			FieldScores: []FieldScore{{Path: []string{"total"}, Score: 1, Weight: 5}, {Path: []string{"a", "b"}, Score: 0, Weight: 0.001}}, Score: &one, Contribution: 1},
		{Index: 1, Status: StatusValid, Prediction: map[string]any{tricky: tricky, "n": map[string]any{"y": []any{1, "2", 3.5, nil, []any{}}, "x": map[string]any{}}},
			FieldScores: []FieldScore{}, Score: &zero},
		{Index: 2, Status: StatusInvalidOutput, Prediction: "Sure! " + tricky, Error: &ResultError{Code: "invalid_value", Path: []string{}, Message: tricky}},
		{Index: 3, Status: StatusExecutionError, Error: &ResultError{Code: "adapter_error", Message: "exit status 3"}},
		{Index: 4, Status: StatusValid, Prediction: map[string]any{"f": 1e-7, "g": 1e21, "h": 1e20, "i": 5e-324, "j": math.MaxFloat64, "k": -0.0, "l": 0.1, "m": 123456789.0, "n": int64(math.MinInt64), "o": json.Number("")},
			FieldScores: []FieldScore{{Path: []string{"f"}, Score: 1, Weight: 1.5e-7}}, Score: &one, Contribution: 2.0 / 3},
		{Index: 5, Status: StatusInvalidOutput, Prediction: map[string]string{"shape": "not from JSON"}, Error: &ResultError{Code: "wrong_type", Path: []string{"shape"}, Message: "m"}},
		{Index: 6, Status: StatusInvalidOutput, Prediction: []any(nil), Error: &ResultError{Code: "wrong_type", Path: nil, Message: "m"}},
		{Index: 7, Status: StatusInvalidOutput, Prediction: []any{float32(1.5), int32(2), uint(3)}, Error: &ResultError{Code: "wrong_type", Path: []string{}, Message: ""}},
	}
	// Usage beside A.14: tokens and latency; where the reply came from (cached: absent with
	// no cache, true from it, false from the provider); its cost (absent without a price, 0
	// for a replay, the unrounded float otherwise, tiny ones in e-notation).
	yes, no := true, false
	costs := []float64{0, 0.0123, 1.5e-7, 3, 2.0 / 3}
	usages := []*Usage{{InputTokens: 3, OutputTokens: 4, LatencyMS: 1.5}, {LatencyMS: 0.01, Cached: &yes}, {InputTokens: 1, Cached: &no}}
	for i := range costs {
		usages = append(usages, &Usage{InputTokens: 10, OutputTokens: 2, LatencyMS: 0.5, CostUSD: &costs[i]})
	}
	for i, u := range usages {
		results = append(results,
			ExampleResult{Index: 8 + 2*i, Status: StatusValid, Prediction: map[string]any{"a": "b"}, FieldScores: []FieldScore{}, Usage: u},
			ExampleResult{Index: 9 + 2*i, Status: StatusExecutionError, Error: &ResultError{Code: "cache_miss", Message: "m"}, Usage: u})
	}
	var lines LineEncoder
	for _, res := range results {
		want, err := stdEncode(&res)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		enc := &resultEncoder{w: &got}
		if err := enc.encode(&res); err != nil {
			t.Fatalf("result %d: %v", res.Index, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("result %d:\n got %s\nwant %s", res.Index, got.Bytes(), want)
		}
		// The store's copy: the same line without its newline, from an encoder that has
		// written others before.
		line, err := lines.Line(&res)
		if err != nil || !bytes.Equal(line, bytes.TrimSuffix(want, []byte{'\n'})) {
			t.Errorf("result %d's line: %s, %v\nwant %s", res.Index, line, err, want)
		}
	}
	// An invalid json.Number fails as it does in encoding/json.
	bad := ExampleResult{Prediction: json.Number("1e")}
	if err := (&resultEncoder{w: io.Discard}).encode(&bad); err == nil {
		t.Error("an invalid json.Number was written")
	}
	if _, err := lines.Line(&bad); err == nil {
		t.Error("an invalid json.Number was given a line")
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "<&>", "\x00\u2028\xff", "é🎉", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got := append(appendString(nil, s), '\n'); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q: got %s, want %s", s, got, want.Bytes())
		}
	})
}

func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e-7, 1e21, 1e20, 5e-324, math.MaxFloat64, 123456.789} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		want, err := json.Marshal(x)
		if err != nil {
			return // NaN and infinities are never written
		}
		if got := appendFloat(nil, x); !bytes.Equal(got, want) {
			t.Fatalf("%v: got %s, want %s", x, got, want)
		}
	})
}

func FuzzValidNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.5e+3", "01", "1.", "-", "1e", "+1", ".5", "1E-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, err := json.Marshal(json.Number(s))
		if got, want := validNumber(s), err == nil; got != want && s != "" {
			t.Fatalf("validNumber(%q) = %v, encoding/json says %v", s, got, want)
		}
	})
}
