package engine

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// TestEqual: exact match per type (A.7). Values are schema-valid, as the engine compares
// them: numbers from JSON are json.Number, from an in-process adapter Go numbers.
func TestEqual(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	tests := []struct {
		rule string
		typ  string
		a, b any
		want bool
	}{
		{"equal strings match", ir.TypeString, "Acme S.L.", "Acme S.L.", true},
		{"the empty string matches itself", ir.TypeString, "", "", true},
		{"no trimming: a trailing space differs", ir.TypeString, "Acme ", "Acme", false},
		{"no trimming: a trailing newline differs", ir.TypeString, "Acme\n", "Acme", false},
		{"no case folding", ir.TypeString, "ACME", "Acme", false},
		{"no Unicode normalisation: é as NFC differs from é as NFD", ir.TypeString, "caf\u00e9", "cafe\u0301", false},
		{"non-ASCII strings that are byte-equal match", ir.TypeString, "東京", "東京", true},

		{"enum members match when identical", ir.TypeEnum, "positive", "positive", true},
		{"different enum members differ", ir.TypeEnum, "positive", "negative", false},

		{"bools match when equal", ir.TypeBool, true, true, true},
		{"false matches false", ir.TypeBool, false, false, true},
		{"true differs from false", ir.TypeBool, true, false, false},

		{"ints compare by value", ir.TypeInt, n("121"), n("121"), true},
		{"different ints differ", ir.TypeInt, n("121"), n("122"), false},
		{"an int from JSON equals the same Go int", ir.TypeInt, n("-5"), -5, true},
		{"an int from JSON equals the same integral float64", ir.TypeInt, n("7"), 7.0, true},
		{"ints beyond 2^53 compare exactly, not as float64", ir.TypeInt, n("9007199254740993"), n("9007199254740992"), false},
		{"the largest int64 equals itself", ir.TypeInt, n("9223372036854775807"), n("9223372036854775807"), true},
		{"ints beyond 64 bits compare exactly: 2^64 equals itself", ir.TypeInt, n("18446744073709551616"), n("18446744073709551616"), true},
		{"ints beyond 64 bits compare exactly: 2^64 differs from 2^64+1", ir.TypeInt, n("18446744073709551616"), n("18446744073709551617"), false},
		{"ints beyond what a double holds exactly differ by one", ir.TypeInt, n("-123456789012345678901234567890"), n("-123456789012345678901234567891"), false},
		{"-0 is the int 0", ir.TypeInt, n("-0"), n("0"), true},
		{"a big int equals an in-process adapter's integral float64 of the same value", ir.TypeInt, n("18446744073709551616"), float64(1 << 64), true},
		{"a lower-case datetime equals its upper-case spelling", ir.TypeDatetime, "2026-01-01t10:00:00z", "2026-01-01T10:00:00Z", true},

		{"121 equals 121.0 as floats", ir.TypeFloat, n("121"), n("121.0"), true},
		{"a json.Number equals the float64 of the same value", ir.TypeFloat, n("121.0"), 121.0, true},
		{"0.1 from JSON equals 0.1 from Go", ir.TypeFloat, n("0.1"), 0.1, true},
		{"1e2 equals 100", ir.TypeFloat, n("1e2"), n("100"), true},
		{"a Go int equals the same float", ir.TypeFloat, 3, n("3.0"), true},
		{"no numeric tolerance: 121 differs from 121.01", ir.TypeFloat, n("121"), n("121.01"), false},
		{"no numeric tolerance: the next float64 after 0.3 differs from 0.3", ir.TypeFloat, math.Nextafter(0.3, 1), n("0.3"), false},
		{"negative zero equals zero", ir.TypeFloat, n("-0.0"), n("0"), true},

		{"equal dates match", ir.TypeDate, "2026-01-05", "2026-01-05", true},
		{"different dates differ", ir.TypeDate, "2026-01-05", "2026-01-06", false},

		{"10:00:00.000 equals 10:00:00", ir.TypeTime, "10:00:00.000", "10:00:00", true},
		{"10:00:00.5 equals 10:00:00.50", ir.TypeTime, "10:00:00.5", "10:00:00.50", true},
		{"10:00:00.5 differs from 10:00:00.05", ir.TypeTime, "10:00:00.5", "10:00:00.05", false},
		{"10:00:00 differs from 10:00:01", ir.TypeTime, "10:00:00", "10:00:01", false},
		{"a fraction beyond nanoseconds still counts", ir.TypeTime, "10:00:00.0000000001", "10:00:00", false},

		{"datetimes compare by instant across offsets", ir.TypeDatetime, "2026-01-01T11:00:00+01:00", "2026-01-01T10:00:00Z", true},
		{"an instant across midnight in another offset", ir.TypeDatetime, "2026-01-01T00:30:00+01:00", "2025-12-31T23:30:00Z", true},
		{"-00:00 is UTC", ir.TypeDatetime, "2026-01-01T10:00:00-00:00", "2026-01-01T10:00:00Z", true},
		{"a zero fraction does not change the instant", ir.TypeDatetime, "2026-01-01T10:00:00.000Z", "2026-01-01T10:00:00Z", true},
		{"the same wall time in different zones differs", ir.TypeDatetime, "2026-01-01T10:00:00+01:00", "2026-01-01T10:00:00Z", false},
		{"a millisecond differs", ir.TypeDatetime, "2026-01-01T10:00:00.001Z", "2026-01-01T10:00:00Z", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if got := equal(tt.typ, tt.a, tt.b); got != tt.want {
				t.Errorf("equal(%s, %#v, %#v) = %v, want %v", tt.typ, tt.a, tt.b, got, tt.want)
			}
			if got := equal(tt.typ, tt.b, tt.a); got != tt.want {
				t.Errorf("equal is not symmetric: equal(%s, %#v, %#v) = %v", tt.typ, tt.b, tt.a, got)
			}
		})
	}
}

// TestEqualArtifacts: image, audio and document values are equal when their files hold the
// same bytes (A.7), whatever their names.
func TestEqualArtifacts(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 10<<10) // 160 KiB: more than one read buffer
	files := map[string]string{
		"a.png":       "hello",
		"b.png":       "hello",
		"upper.png":   "hellO",
		"longer.png":  "hello!",
		"empty1.png":  "",
		"empty2.png":  "",
		"big1.png":    big,
		"big2.png":    big,
		"bigend.png":  big[:len(big)-1] + "X",
		"bigmid.png":  big[:100000] + "X" + big[100001:],
		"sub/a.png":   "hello",
		"crlf.png":    "a\r\nb",
		"lf.png":      "a\nb",
		"unicode.png": "caf\u00e9",
		"nfd.png":     "cafe\u0301",
	}
	testkit.WriteFiles(t, dir, files)
	path := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	tests := []struct {
		rule string
		typ  string
		a, b string
		want bool
	}{
		{"two distinct files with equal bytes are equal", ir.TypeImage, "a.png", "b.png", true},
		{"a file equals itself", ir.TypeImage, "a.png", "a.png", true},
		{"the directory does not matter, only the bytes", ir.TypeDocument, "a.png", "sub/a.png", true},
		{"one different byte makes files differ", ir.TypeImage, "a.png", "upper.png", false},
		{"files of different sizes differ", ir.TypeAudio, "a.png", "longer.png", false},
		{"two empty files are equal", ir.TypeDocument, "empty1.png", "empty2.png", true},
		{"an empty file differs from a non-empty one", ir.TypeDocument, "empty1.png", "a.png", false},
		{"large equal files are equal", ir.TypeAudio, "big1.png", "big2.png", true},
		{"large files differing in their last byte differ", ir.TypeAudio, "big1.png", "bigend.png", false},
		{"large files differing past the first buffer differ", ir.TypeAudio, "big1.png", "bigmid.png", false},
		{"no line-ending normalisation", ir.TypeDocument, "crlf.png", "lf.png", false},
		{"no Unicode normalisation of file contents", ir.TypeDocument, "unicode.png", "nfd.png", false},
		{"a missing file equals nothing", ir.TypeImage, "a.png", "gone.png", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if got := equal(tt.typ, path(tt.a), path(tt.b)); got != tt.want {
				t.Errorf("equal(%s, %s, %s) = %v, want %v", tt.typ, tt.a, tt.b, got, tt.want)
			}
			if got := equal(tt.typ, path(tt.b), path(tt.a)); got != tt.want {
				t.Errorf("equal is not symmetric on %s, %s", tt.b, tt.a)
			}
		})
	}
	if _, err := os.Stat(path("gone.png")); err == nil {
		t.Fatal("gone.png exists")
	}
}
