package cli

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// TestJUnitXMLValid: what an adapter answers or says goes into the JUnit file as text, and
// the file stays XML a CI system reads: markup escaped, and the characters XML 1.0 forbids
// (NUL, an ANSI escape, invalid UTF-8) dropped, which no escape can carry.
func TestJUnitXMLValid(t *testing.T) {
	out := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}}
	s := &junitSuite{benchmark: `b<"&>.yaml`, system: "sys\x00", output: out}
	one := 1.0
	half := 0.0
	s.add(engine.ExampleResult{Index: 1, Status: engine.StatusValid, Score: &half, Prediction: map[string]any{"label": "</failure><x a='1'>\x1b[31m\x00\xff"},
		Row:         []byte(`{"input": {"text": "t"}, "expected": {"label": "ok"}}`),
		FieldScores: []engine.FieldScore{{Path: []string{"label"}, Score: 0, Weight: 1}}})
	s.add(engine.ExampleResult{Index: 0, Status: engine.StatusValid, Score: &one, Prediction: map[string]any{"label": "ok"}})
	s.add(engine.ExampleResult{Index: 2, Status: engine.StatusExecutionError, Error: &engine.ResultError{Code: diag.Code("adapter_error"), Message: "boom\x07 <b>"}})
	var b bytes.Buffer
	if err := encodeJUnit(&b, []*junitSuite{s}); err != nil {
		t.Fatal(err)
	}
	var doc xmlSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	if doc.Tests != 3 || doc.Failures != 2 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 3 {
		t.Fatalf("counts: %+v", doc)
	}
	c := doc.Suites[0].Cases
	if c[0].Name != "example 0" || c[0].Failure != nil || c[1].Name != "example 1" || c[2].Failure == nil {
		t.Errorf("cases not in index order or failures wrong: %+v", c)
	}
	if want := `✗ label: expected "ok", predicted "</failure><x a='1'>\u001b[31m`; !strings.Contains(c[1].Failure.Message, want) {
		t.Errorf("message %q lacks %q", c[1].Failure.Message, want)
	}
	if c[2].Failure.Type != "execution_error" || !strings.Contains(c[2].Failure.Text, "adapter_error: boom <b>") {
		t.Errorf("execution error: %+v", c[2].Failure)
	}
	if c[0].Classname != `b<"&>.yaml` {
		t.Errorf("classname %q", c[0].Classname)
	}
}
