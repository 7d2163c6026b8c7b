package adapter

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// strictAnswers are outputs that encoding/json would silently repair or collapse, each
// written raw: RFC 8259 §8.1 (UTF-8), §8.2 (lone surrogates), §4 (unique names).
var strictAnswers = []struct{ name, output string }{
	{"invalid UTF-8 in a value", "{\"label\":\"caf\xe9\"}"},
	{"invalid UTF-8 in a key", "{\"lab\xffel\":\"a\"}"},
	{"a lone high surrogate escape", `{"label":"\ud83c"}`},
	{"a lone low surrogate escape", `{"label":"x\udf89"}`},
	{"a duplicate key", `{"label":"a","label":"b"}`},
	{"an escaped duplicate key", `{"label":"a","\u006cabel":"b"}`},
}

// TestHardeningStrictOutputsCommand: a command adapter whose answer line is JSON that
// breaks RFC 8259's rules gives invalid_output, never a repaired and scored value; the
// process stays in step (no restart) for the next example.
func TestHardeningStrictOutputsCommand(t *testing.T) {
	for _, tt := range strictAnswers {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			answer := filepath.Join(dir, "answer.json")
			if err := os.WriteFile(answer, []byte(`{"id":0,"output":`+tt.output+"}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(dir, "answer.sh")
			if err := os.WriteFile(script, []byte("#!/bin/sh\nwhile read -r line; do cat '"+answer+"'; done\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			a := started(t, echoFactory(t, dir, script, "10s", nil))
			out, err := a.Invoke(context.Background(), 0, map[string]any{"text": "x"})
			if err == nil {
				t.Fatalf("output %#v accepted", out)
			}
			f := failureOf(t, err)
			if f.Status != engine.StatusInvalidOutput || f.Code != diag.InvalidValue || !strings.Contains(f.Message, "strict JSON") {
				t.Errorf("failure %+v, want invalid_output/invalid_value saying it is not strict JSON", f)
			}
		})
	}
}

// TestHardeningStrictOutputsHTTP: the same for an http binding's response body.
func TestHardeningStrictOutputsHTTP(t *testing.T) {
	for _, tt := range strictAnswers {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tt.output)
			}))
			defer srv.Close()
			a := started(t, httpFactoryFor(t, srv.URL, "10s"))
			out, err := a.Invoke(context.Background(), 0, map[string]any{"text": "x"})
			if err == nil {
				t.Fatalf("output %#v accepted", out)
			}
			f := failureOf(t, err)
			if f.Status != engine.StatusInvalidOutput || !strings.Contains(f.Message, "strict JSON") {
				t.Errorf("failure %+v, want invalid_output saying it is not strict JSON", f)
			}
		})
	}
}
