package ir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Hash names canonical IR bytes: "sha256:" and the lower-case hex digest.
func Hash(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Unmarshal decodes IR JSON (canonical or not) into a Benchmark.
func Unmarshal(data []byte) (*Benchmark, error) {
	var b Benchmark
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("ir: %w", err)
	}
	if !atEOF(dec) {
		return nil, fmt.Errorf("ir: trailing data after the IR object")
	}
	return &b, nil
}

// Canonicalize re-encodes any JSON text by RFC 8785: object members sorted by their UTF-16
// code units, no insignificant whitespace, numbers in ECMAScript's shortest form, strings
// with only the mandatory escapes.
func Canonicalize(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if !atEOF(dec) {
		return nil, fmt.Errorf("ir: trailing data after JSON value")
	}
	var buf bytes.Buffer
	if err := encode(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// atEOF reports whether only whitespace follows the value dec has decoded. Decoder.More is
// not enough: it is false before a stray '}' or ']'.
func atEOF(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}

func encode(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return fmt.Errorf("ir: number %v is not finite", x)
		}
		buf.Write(AppendNumber(buf.AvailableBuffer(), x))
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil || math.IsInf(f, 0) {
			return fmt.Errorf("ir: number %s is not a finite IEEE-754 double", x)
		}
		buf.Write(AppendNumber(nil, f))
	case string:
		return encodeString(buf, x)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encode(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encodeString(buf, k); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := encode(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("ir: cannot canonicalize %T", v)
	}
	return nil
}

// AppendNumber appends f as ECMAScript's Number.prototype.toString would (RFC 8785 §3.2.2.3).
// f must be finite.
func AppendNumber(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0') // also -0
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Go writes e-07; ECMAScript writes e-7.
		n := len(b)
		if n-start >= 4 && b[n-4] == 'e' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func encodeString(buf *bytes.Buffer, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("ir: string is not valid UTF-8")
	}
	const hexdigits = "0123456789abcdef"
	buf.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			buf.WriteByte('\\')
			buf.WriteByte(c)
		case c == '\b':
			buf.WriteString(`\b`)
		case c == '\f':
			buf.WriteString(`\f`)
		case c == '\n':
			buf.WriteString(`\n`)
		case c == '\r':
			buf.WriteString(`\r`)
		case c == '\t':
			buf.WriteString(`\t`)
		case c < 0x20:
			buf.WriteString(`\u00`)
			buf.WriteByte(hexdigits[c>>4])
			buf.WriteByte(hexdigits[c&0xf])
		default:
			buf.WriteByte(c)
		}
	}
	buf.WriteByte('"')
	return nil
}

// compareUTF16 orders strings by their UTF-16 code units, as RFC 8785 requires.
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// BenchmarkHash names a benchmark apart from the AI-system that takes it, the paper's
// B = (P, S, D): "sha256:" and the hex digest of the canonical IR bytes without their
// ai_system member (the rest stays as Canonicalize writes it). Two IRs that differ only in
// their AI-system have one benchmark hash and two IR hashes (Hash): runs of several systems
// on one benchmark are told apart by the one and compared by the other.
func BenchmarkHash(canonical []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("ir: %w", err)
	}
	if !atEOF(dec) {
		return "", fmt.Errorf("ir: trailing data after the IR object")
	}
	if _, ok := v["ai_system"]; !ok {
		return "", fmt.Errorf("ir: the IR has no ai_system member")
	}
	delete(v, "ai_system")
	var buf bytes.Buffer
	if err := encode(&buf, v); err != nil {
		return "", err
	}
	return Hash(buf.Bytes()), nil
}
