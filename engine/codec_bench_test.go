package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// codecRow is a dataset row of the invoice example's shape.
var codecRow = []byte(`{"input":{"image":"images/0001.png"},"expected":{"invoice_number":"F-2024-0001","date":"2024-03-15","supplier":"Distribuciones Garcia S.L.","subtotal":1250.5,"total":1513.11}}`)

// BenchmarkDecodeRow measures the dataset reader's strict decoder against the libraries it
// could be replaced by (issue 12, item 8): encoding/json with UseNumber (not strict: it repairs
// invalid UTF-8 and keeps the last duplicate key, so a strict check would come on top), and
// go-json-experiment/json v2, strict by default.
func BenchmarkDecodeRow(b *testing.B) {
	b.Run("hand-written", func(b *testing.B) {
		b.SetBytes(int64(len(codecRow)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeStrict(codecRow); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(codecRow)))
		b.ReportAllocs()
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(codecRow))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-v2", func(b *testing.B) {
		b.SetBytes(int64(len(codecRow)))
		b.ReportAllocs()
		for b.Loop() {
			dec := jsontext.NewDecoder(bytes.NewReader(codecRow))
			var v any
			if err := jsonv2.UnmarshalDecode(dec, &v); err != nil {
				b.Fatal(err)
			}
			if _, err := dec.ReadToken(); err != io.EOF {
				b.Fatal("trailing data")
			}
		}
	})
}

// decodeV2 is what a json v2 replacement of decodeStrict would be on the happy path: jsontext's
// strict tokenizer (it rejects invalid UTF-8, lone surrogates and duplicate names by default)
// with the tree built here, numbers kept as written (json.Number), since json v2 decodes a
// number into any as float64 and has no UseNumber. It leaves out what decodeStrict also does
// on a strict failure (classify the error, decode again leniently for the repaired value).
func decodeV2(line []byte) (any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(line))
	v, err := decodeV2Value(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("the line goes on after the JSON value")
	}
	return v, nil
}

func decodeV2Value(dec *jsontext.Decoder) (any, error) {
	switch dec.PeekKind() {
	case '0':
		raw, err := dec.ReadValue()
		return json.Number(raw), err
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		m := map[string]any{}
		for dec.PeekKind() != '}' {
			k, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := k.String() // before the next read voids k
			v, err := decodeV2Value(dec)
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
		_, err := dec.ReadToken()
		return m, err
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		a := []any{}
		for dec.PeekKind() != ']' {
			v, err := decodeV2Value(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.ReadToken()
		return a, err
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't', 'f':
		return tok.Bool(), nil
	}
	return tok.String(), nil
}

// BenchmarkDecodeRowNumbers is BenchmarkDecodeRow's json v2 case with numbers kept as
// written, the semantics the engine needs (121 and 121.0 differ for its int check).
func BenchmarkDecodeRowNumbers(b *testing.B) {
	want, err := decodeStrict(codecRow)
	if err != nil {
		b.Fatal(err)
	}
	if got, err := decodeV2(codecRow); err != nil || !reflect.DeepEqual(got, want) {
		b.Fatalf("json v2 decodes %v, %v; want %v", got, err, want)
	}
	b.SetBytes(int64(len(codecRow)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeV2(codecRow); err != nil {
			b.Fatal(err)
		}
	}
}

// codecResult is a results-stream line of the invoice example's shape.
func codecResult() *ExampleResult {
	one := 1.0
	pred, err := decodeStrict([]byte(`{"invoice_number":"F-2024-0001","date":"2024-03-15","supplier":"Distribuciones Garcia S.L.","subtotal":1250.5,"total":1513.11}`))
	if err != nil {
		panic(err)
	}
	var fs []FieldScore
	for _, k := range []string{"date", "invoice_number", "subtotal", "supplier", "total"} {
		fs = append(fs, FieldScore{Path: []string{k}, Score: 1, Weight: 1})
	}
	return &ExampleResult{Index: 41, Status: StatusValid, Prediction: pred, FieldScores: fs, Score: &one, Contribution: 1.0 / 9}
}

// v2Options make json v2 write what encoding/json writes for a result: nil slices as null,
// map keys sorted, json.Number as its digits (v2 would quote it: to v2 it is a string).
var v2Options = jsonv2.JoinOptions(
	jsonv2.FormatNilSliceAsNull(true),
	jsonv2.Deterministic(true),
	jsonv2.WithMarshalers(jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, n json.Number) error {
		return enc.WriteValue(jsontext.Value(n))
	})),
)

// BenchmarkEncodeResult measures the results stream's hand-written encoder against
// encoding/json's Encoder (HTML escaping off, as the stream is written) and json v2 set to
// write the same bytes (issue 12, item 8).
func BenchmarkEncodeResult(b *testing.B) {
	res := codecResult()
	want, err := stdEncode(res)
	if err != nil {
		b.Fatal(err)
	}
	var v2 bytes.Buffer
	if err := jsonv2.MarshalWrite(&v2, res, v2Options); err != nil {
		b.Fatal(err)
	}
	if v2.WriteByte('\n'); !bytes.Equal(v2.Bytes(), want) {
		b.Fatalf("json v2 writes\n%s\nencoding/json\n%s", v2.Bytes(), want)
	}
	b.Run("hand-written", func(b *testing.B) {
		b.ReportAllocs()
		enc := &resultEncoder{w: io.Discard}
		for b.Loop() {
			if err := enc.encode(res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		enc := json.NewEncoder(io.Discard)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			if err := enc.Encode(res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-v2", func(b *testing.B) {
		b.ReportAllocs()
		enc := jsontext.NewEncoder(io.Discard)
		for b.Loop() {
			if err := jsonv2.MarshalEncode(enc, res, v2Options); err != nil {
				b.Fatal(err)
			}
		}
	})
}
