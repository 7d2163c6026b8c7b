package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
)

// TestParseTemplateLinear: parsing a prompt costs time linear in its length, however its
// placeholders or its unterminated {{ fall on its lines, and gives at most 100 diagnostics
// and one saying how many more. 4 MiB prompts of one line of {{text}} (half a million
// placeholders) and of lines that each open a {{ and never close it took 38 s and 87 s
// (each placeholder looked for the end of its line, each unterminated one for a }} to the
// end of the file, each of 599,186 diagnostics counted the lines before it); they take
// some 100 ms. The deadline is generous: only a quadratic parse misses it.
func TestParseTemplateLinear(t *testing.T) {
	input := boundTask("").Input
	for _, c := range []struct {
		name, prompt string
		diagnostics  int
		line, column int // of the 100th diagnostic
		more         string
	}{
		{name: "one line of placeholders", prompt: "---user---\n" + strings.Repeat("{{text}}", 4<<20/8)},
		{name: "a line of placeholders, then a second line", prompt: "---user---\n" + strings.Repeat("{{text}} ", 4<<20/9) + "\nend"},
		{"lines that never close their {{", "---user---\n" + strings.Repeat("{{text\n", 4<<20/7), 101, 101, 1, "599086 more problems"},
		{"one line of empty placeholders", "---user---\n" + strings.Repeat("{{}}", 4<<20/4), 101, 2, 1 + 99*4, "1048476 more problems"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			tmpl, ds := ParseTemplate("p.md", c.prompt, input, KindOpenAI)
			took := time.Since(start)
			t.Logf("%d KiB: %v, %d diagnostics", len(c.prompt)>>10, took, len(ds))
			if took > 20*time.Second {
				t.Errorf("parsing %d KiB took %v", len(c.prompt)>>10, took)
			}
			if (tmpl == nil) != (c.diagnostics > 0) || len(ds) != c.diagnostics {
				t.Fatalf("template %v, %d diagnostics; want %d", tmpl != nil, len(ds), c.diagnostics)
			}
			if c.diagnostics > 0 {
				last := ds[len(ds)-1]
				if last.Code != diag.TooManyDiagnostics || last.File != "p.md" || ds[99].Line != c.line || ds[99].Column != c.column || !strings.Contains(last.Message, c.more) {
					t.Errorf("the 100th diagnostic %+v, the last %+v; want it at %d:%d, then too_many_diagnostics: %s", ds[99], last, c.line, c.column, c.more)
				}
			}
		})
	}
}
