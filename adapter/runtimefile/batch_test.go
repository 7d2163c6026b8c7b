package runtimefile

import (
	"strings"
	"testing"
)

// TestParseBatch: a provider's batch: true turns batch mode on, false or none leaves it
// off, and anything else is an error at its position.
func TestParseBatch(t *testing.T) {
	for _, c := range []struct {
		line string
		on   bool
		err  string
	}{{"", false, ""}, {"    batch: true\n", true, ""}, {"    batch: false\n", false, ""}, {"    batch: yes please\n", false, "4:12"}} {
		f, ds := Parse([]byte("providers:\n  p:\n    kind: openai\n" + c.line))
		if c.err != "" {
			if len(ds) == 0 || !strings.Contains(ds.Err().Error(), c.err) || !strings.Contains(ds.Err().Error(), "batch must be true") {
				t.Errorf("%q: %v", c.line, ds)
			}
			continue
		}
		if len(ds) > 0 || len(f.Providers) != 1 || f.Providers[0].Batch.On != c.on {
			t.Errorf("%q: %+v %v", c.line, f, ds)
		}
	}
}
