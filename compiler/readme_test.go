package compiler

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEExamples compiles every complete benchmark shown in the README, so the
// documentation cannot drift from the language.
func TestREADMEExamples(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(data), "```yaml\n")
	n := 0
	for _, b := range blocks[1:] {
		src, _, _ := strings.Cut(b, "```")
		if !strings.HasPrefix(src, "version:") {
			continue
		}
		n++
		if _, ds := Compile([]byte(src)); len(ds) > 0 {
			t.Errorf("README example %d does not compile:\n%s\n%s", n, ds.Format("README"), src)
		}
	}
	if n < 5 {
		t.Errorf("found %d complete examples in the README, want the invoice and one per task", n)
	}
}
