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
	if doc.Tests != 3 || doc.Failures != 1 || doc.Errors != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 3 {
		t.Fatalf("counts: %+v", doc)
	}
	c := doc.Suites[0].Cases
	if c[0].Name != "example 0" || c[0].Failure != nil || c[1].Name != "example 1" || c[2].Error == nil {
		t.Errorf("cases not in index order or failures wrong: %+v", c)
	}
	if want := `✗ label: expected "ok", predicted "</failure><x a='1'>\u001b[31m`; !strings.Contains(c[1].Failure.Message, want) {
		t.Errorf("message %q lacks %q", c[1].Failure.Message, want)
	}
	if c[2].Error.Type != "execution_error" || !strings.Contains(c[2].Error.Text, "adapter_error: boom <b>") {
		t.Errorf("execution error: %+v", c[2].Error)
	}
	if c[0].Classname != `b<"&>.yaml` {
		t.Errorf("classname %q", c[0].Classname)
	}
}

// TestJUnitCases: an execution error is an <error> counted in errors=, an invalid output
// and an imperfect score a <failure>; each case is named "example N (hint)", the hint the
// first text input's first 40 characters on one line, else the first artifact's file
// name, with time= its latency in seconds when recorded; with several systems, each
// suite's classname carries its label.
func TestJUnitCases(t *testing.T) {
	in := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "scan", Type: ir.TypeImage}, {Name: "note", Type: ir.TypeString}}}
	scanOnly := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "scan", Type: ir.TypeImage}}}
	out := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}}
	zero := 0.0
	long := `{"input": {"scan": "img/clean-04.png", "note": "a note\nthat is much longer than forty characters <b>"}, "expected": {"label": "ok"}}`
	a := &junitSuite{benchmark: "b.yaml", system: "sys-a", input: in, output: out}
	a.add(engine.ExampleResult{Index: 0, Status: engine.StatusValid, Score: &zero, Row: []byte(long), Usage: &engine.Usage{LatencyMS: 1250}})
	a.add(engine.ExampleResult{Index: 1, Status: engine.StatusInvalidOutput, Row: []byte(long)})
	a.add(engine.ExampleResult{Index: 2, Status: engine.StatusExecutionError, Error: &engine.ResultError{Code: "provider_error", Message: "down"}})
	b := &junitSuite{benchmark: "b.yaml", system: "sys-b", input: scanOnly, output: out}
	b.add(engine.ExampleResult{Index: 3, Status: engine.StatusExecutionError, Row: []byte(long), Error: &engine.ResultError{Code: "provider_error", Message: "down"}})
	var buf bytes.Buffer
	if err := encodeJUnit(&buf, []*junitSuite{a, b}); err != nil {
		t.Fatal(err)
	}
	var doc xmlSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.String())
	}
	if doc.Tests != 4 || doc.Failures != 2 || doc.Errors != 2 || doc.Suites[0].Errors != 1 || doc.Suites[0].Failures != 2 || doc.Suites[1].Errors != 1 {
		t.Errorf("counts:\n%s", buf.String())
	}
	ca, cb := doc.Suites[0].Cases, doc.Suites[1].Cases
	for _, c := range []struct{ got, want string }{
		{ca[0].Name, "example 0 (a note that is much longer than forty ch…)"},
		{ca[0].Time, "1.250"},
		{ca[1].Time, ""},
		{ca[2].Name, "example 2"},
		{cb[0].Name, "example 3 (clean-04.png)"},
		{ca[0].Classname, "b.yaml · sys-a"},
		{cb[0].Classname, "b.yaml · sys-b"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if ca[0].Failure == nil || ca[1].Failure == nil || ca[2].Error == nil || ca[2].Failure != nil || cb[0].Error == nil {
		t.Errorf("outcomes:\n%s", buf.String())
	}
}
