package compiler

import (
	"os"
	"strings"
	"testing"
)

// TestLongValuesAreClipped: a diagnostic quotes at most 100 characters of a long value.
func TestLongValuesAreClipped(t *testing.T) {
	src, _ := readCase(t, "ok_paper_invoice")
	long := strings.Repeat("x", 10000)
	_, ds := Compile([]byte(strings.Replace(src, "domain: finance", "domain: "+long, 1)))
	if len(ds) != 1 || len(ds[0].Message) > 300 || !strings.Contains(ds[0].Message, "…") {
		t.Errorf("got %d diagnostics, message of %d bytes", len(ds), len(ds[0].Message))
	}
}

func readCase(t *testing.T, name string) (string, error) {
	t.Helper()
	b, err := os.ReadFile("testdata/compile/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b), nil
}
