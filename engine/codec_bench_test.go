package engine

import (
	"bytes"
	"encoding/json"
	"io"
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
			if _, err := decodeJSON(codecRow); err != nil {
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
