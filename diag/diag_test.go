package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestSortOrdersAndDedupes(t *testing.T) {
	l := List{
		{Code: UnknownKey, Path: []string{"b"}, Line: 3, Column: 1, Message: "m"},
		{Code: MissingKey, Path: []string{"a"}, Line: 1, Column: 5, Message: "m"},
		{Code: InvalidYAML, Path: []string{}, Line: 1, Column: 5, Message: "m"},
		{Code: UnknownKey, Path: []string{"b"}, Line: 3, Column: 1, Message: "m"},
		{Code: UnknownKey, Path: []string{"a"}, Line: 3, Column: 1, Message: "m"},
	}
	got := l.Sort()
	want := []string{"1:5 missing_key", "1:5 invalid_yaml", "3:1 unknown_key", "3:1 unknown_key"}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d (the duplicate dropped): %v", len(got), len(want), got)
	}
	for i, d := range got {
		if s := fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Code); s != want[i] {
			t.Errorf("%d: got %s, want %s", i, s, want[i])
		}
	}
	if got[2].Path[0] != "b" || got[3].Path[0] != "a" {
		t.Errorf("problems at the same place keep the order they were found in: %v", got)
	}
}

func TestFormat(t *testing.T) {
	l := List{
		{Code: UnknownKey, Path: []string{"ai_system"}, Line: 3, Column: 1, Message: `unknown key "ai_system"`, Suggestion: "ai-system"},
		{Code: MissingWeight, Path: []string{"scoring", "weights", "x"}, Line: 9, Column: 3, Message: "output field x has no weight"},
	}
	want := "b.yaml:3:1: unknown_key: unknown key \"ai_system\" (did you mean ai-system?)\n" +
		"b.yaml:9:3: missing_weight: output field x has no weight\n"
	if got := l.Format("b.yaml"); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
	if got := l.Error(); !strings.HasPrefix(got, "3:1: unknown_key") || strings.HasSuffix(got, "\n") {
		t.Errorf("Error() = %q", got)
	}
}

func TestJSON(t *testing.T) {
	if got := string(List(nil).JSON()); got != "[]\n" {
		t.Errorf("empty list = %q, want []", got)
	}
	l := List{{Phase: PhaseValidate, Code: InvalidWeight, Path: []string{"scoring"}, Message: "weights must be >= 0 & <finite>", Line: 2, Column: 4}}
	got := string(l.JSON())
	for _, want := range []string{`"phase": "validate"`, `"code": "invalid_weight"`, `"path": [`, `"message": "weights must be >= 0 & <finite>"`, `"line": 2`, `"column": 4`} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "suggestion") {
		t.Errorf("an empty suggestion is left out:\n%s", got)
	}
}

func TestRegistry(t *testing.T) {
	for c, meaning := range Codes {
		if !Registered(c) || meaning == "" || strings.ToLower(string(c)) != string(c) {
			t.Errorf("code %q: registered=%v meaning=%q", c, Registered(c), meaning)
		}
	}
	if Registered("no_such_code") {
		t.Error("an unknown code is registered")
	}
	// The paper's representative codes (Appendix A.16) are all here.
	for _, c := range strings.Fields(`invalid_yaml duplicate_key unknown_key unsupported_version
		unsupported_ontology_version unknown_task unknown_domain unknown_language task_program_mismatch
		invalid_schema missing_weight extra_weight invalid_weight data_not_found invalid_dataset_record
		artifact_not_found missing_field extra_field wrong_type invalid_enum invalid_value adapter_error
		timeout provider_error`) {
		if !Registered(Code(c)) {
			t.Errorf("paper code %s is not registered", c)
		}
	}
}

func TestStringIsOneLine(t *testing.T) {
	d := Diagnostic{Code: InvalidValue, Line: 1, Column: 2, Message: "id must not\nend with whitespace", Suggestion: "a\r\nb"}
	if got, want := d.String(), `1:2: invalid_value: id must not\nend with whitespace (did you mean a\nb?)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// A diagnostic carries its file: Format and Error print it, In names it where missing,
// Sort keeps each file's problems together, and Err is nil for no problems.
func TestDiagnosticFile(t *testing.T) {
	l := List{
		{Code: InvalidRuntime, Path: []string{}, Line: 2, Column: 1, Message: "m", File: "benchy.runtime.yaml"},
		{Code: UnknownKey, Path: []string{}, Line: 1, Column: 1, Message: "k"},
	}
	want := "benchy.runtime.yaml:2:1: invalid_runtime: m\nb.yaml:1:1: unknown_key: k\n"
	if got := l.Format("b.yaml"); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
	in := l.In("b.yaml")
	if in[0].File != "benchy.runtime.yaml" || in[1].File != "b.yaml" || l[1].File != "" {
		t.Errorf("In: %v (and the original must stay %v)", in, l)
	}
	if got := in.Error(); got != strings.TrimSuffix(want, "\n") {
		t.Errorf("Error = %q", got)
	}
	sorted := List{in[0], in[1], in[0]}.Sort()
	if len(sorted) != 2 || sorted[0].File != "b.yaml" {
		t.Errorf("Sort by file, then position, duplicates dropped: %v", sorted)
	}
	if err := (List{}).Err(); err != nil {
		t.Errorf("an empty list's Err = %v, want nil", err)
	}
	var got List
	if err := in.Err(); err == nil || !errors.As(err, &got) || len(got) != 2 {
		t.Errorf("Err of two problems = %v, and errors.As gives %v", err, got)
	}
	if b := (List{in[1]}).JSON(); !strings.Contains(string(b), `"file": "b.yaml"`) {
		t.Errorf("JSON carries the file: %s", b)
	}
	if b := (List{l[1]}).JSON(); strings.Contains(string(b), `"file"`) {
		t.Errorf("JSON without a file has no file member: %s", b)
	}
}
