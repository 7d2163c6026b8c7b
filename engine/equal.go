package engine

import (
	"bytes"
	"io"
	"os"

	"github.com/benchy-eval/benchy/ir"
)

// equal is exact match (A.7) on two schema-valid values of type typ: no trimming, case
// folding, normalisation or tolerance. Numbers compare by value (121 equals 121.0),
// temporal values by what they denote, artifacts byte for byte.
func equal(typ string, a, b any) bool {
	switch typ {
	case ir.TypeInt, ir.TypeFloat:
		if x, ok := intText(a); ok {
			if y, ok := intText(b); ok {
				return x == y // exactly, at any size
			}
		}
		x, _ := asFloat(a)
		y, _ := asFloat(b)
		return x == y
	case ir.TypeDate:
		return a.(string) == b.(string) // check admits only YYYY-MM-DD: one spelling per date
	case ir.TypeTime, ir.TypeDatetime:
		x, err1 := parseTemporal(typ, a.(string))
		y, err2 := parseTemporal(typ, b.(string))
		return err1 == nil && err2 == nil && x == y
	case ir.TypeImage, ir.TypeAudio, ir.TypeDocument:
		return sameFile(a.(string), b.(string))
	}
	return a == b // string, enum, bool
}

// sameFile compares two files byte for byte.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	sa, err1 := fa.Stat()
	sb, err2 := fb.Stat()
	if err1 != nil || err2 != nil || sa.Size() != sb.Size() {
		return false
	}
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(fa, bufA)
		nb, errB := io.ReadFull(fb, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		if errA != nil || errB != nil {
			return (errA == io.EOF || errA == io.ErrUnexpectedEOF) && (errB == io.EOF || errB == io.ErrUnexpectedEOF)
		}
	}
}
