package runtimefile

import (
	"testing"

	"github.com/benchy-eval/benchy/diag"
)

// TestParseTokensPerMinute: tokens_per_minute sits beside requests_per_minute, a whole
// number of at least 1 (before it, its name was taken for a credential and refused).
func TestParseTokensPerMinute(t *testing.T) {
	f := parseOK(t, "providers:\n  a:\n    kind: openai\n    requests_per_minute: 500\n    tokens_per_minute: 30000\n  b: {kind: anthropic}\n")
	if got := f.Providers[0]; got.TokensPerMinute != 30000 || got.RequestsPerMinute != 500 {
		t.Errorf("provider a = %+v, want tokens_per_minute 30000 beside requests_per_minute 500", got)
	}
	if got := f.Providers[1]; got.TokensPerMinute != 0 {
		t.Errorf("provider b = %+v, want no tokens limit when it says none", got)
	}
}

func TestParseTokensPerMinuteErrors(t *testing.T) {
	checkRefusals(t, []refusal{
		{"zero", "providers:\n  a:\n    kind: openai\n    tokens_per_minute: 0\n", []string{`provider "a": tokens_per_minute must be at least 1; found 0`}, 4, ""},
		{"negative", "providers:\n  a:\n    kind: openai\n    tokens_per_minute: -90000\n", []string{`provider "a": tokens_per_minute must be at least 1; found -90000`}, 4, ""},
		{"a fraction", "providers:\n  a:\n    kind: openai\n    tokens_per_minute: 1.5\n", []string{`provider "a": tokens_per_minute must be a whole number of at least 1`}, 4, ""},
		{"a quoted number", "providers:\n  a:\n    kind: openai\n    tokens_per_minute: '90000'\n", []string{`provider "a": tokens_per_minute must be a whole number of at least 1`}, 4, ""},
		{"with a unit", "providers:\n  a:\n    kind: openai\n    tokens_per_minute: 90k\n", []string{`provider "a": tokens_per_minute must be a whole number of at least 1`}, 4, ""},
		{"huge", "providers:\n  a:\n    kind: openai\n    tokens_per_minute: 99999999999999999999\n", []string{`provider "a": tokens_per_minute is too large`}, 4, ""},
		{"misspelt", "providers:\n  a:\n    kind: openai\n    token_per_minute: 90000\n", []string{`provider "a": unknown key "token_per_minute"`}, 4, "tokens_per_minute"},
	}, "")
}

// TestTokensPerMinutePosition: the error is at the value, line and column.
func TestTokensPerMinutePosition(t *testing.T) {
	_, ds := Parse([]byte("providers:\n  a:\n    kind: openai\n    tokens_per_minute: nope\n"))
	if len(ds) != 1 || ds[0].Line != 4 || ds[0].Column != 24 || ds[0].Code != diag.InvalidRuntime {
		t.Fatalf("diagnostics = %+v, want one invalid_runtime at 4:24", ds)
	}
}
