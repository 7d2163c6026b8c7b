package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/redact"
)

// escaped is s with every character written as a JSON \u escape.
func escaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// TestBatchClean: what a hostile batch provider says of a batch is refused or cleaned
// before it is kept, printed or served: an id holding the key, a path or a control
// character is refused; a state the APIs do not document is "unknown"; a message is
// masked (as written and \u-escaped), its control characters replaced, and cut; negative
// or unknown counts are dropped.
func TestBatchClean(t *testing.T) {
	m, _ := oaAdapter(t, Config{BaseURL: "http://127.0.0.1:1/v1"}, oaQATask())
	b := &Batcher{a: m}
	for _, id := range []string{"batch_" + oaKey, "../files/x", "a/b", "batch?x=1", "id\x1b[2J", "", strings.Repeat("a", 201), "batch_%2e%2e"} {
		info := BatchInfo{ID: id, State: "in_progress"}
		if err := b.clean(&info); err == nil || strings.Contains(err.Error(), oaKey) {
			t.Errorf("id %q: %v, want it refused without quoting it", id, err)
		}
	}
	info := BatchInfo{ID: "batch_abc-12.3:x", State: "in_progress", Detail: BatchDetail{OutputFileID: "file-" + oaKey}}
	if err := b.clean(&info); err == nil {
		t.Errorf("an output file id holding the key was kept")
	}
	info = BatchInfo{ID: "batch_abc", State: "\x1b[31mowned", Detail: BatchDetail{
		Message: "key " + oaKey + " is bad; " + escaped(oaKey) + "\n\x1b[2J" + strings.Repeat("é", 400),
		Counts:  map[string]int{"completed": 3, "failed": -5, "evil": 9, "succeeded": 1_000_000_000_000}}, Requests: 10}
	if err := b.clean(&info); err != nil {
		t.Fatal(err)
	}
	msg := info.Detail.Message
	if info.State != "unknown" || strings.Contains(msg, oaKey) || strings.ContainsAny(msg, "\x1b\n") || len(msg) > maxProviderMessage+len("…") {
		t.Errorf("cleaned: state %q, message %q", info.State, msg)
	}
	if len(info.Detail.Counts) != 1 || info.Detail.Counts["completed"] != 3 {
		t.Errorf("counts %v, want only completed", info.Detail.Counts)
	}
	if got := b.cleanText(`{"error":"` + escaped(oaKey) + `"}`); strings.Contains(got, oaKey) || strings.Contains(got, escaped(oaKey)[:12]) {
		t.Errorf("a \\u-escaped key in a JSON message: %q", got)
	}
}

// TestMaskReply: a reply kept (the response cache, a batch's replies) holds no key, as
// written or \u-escaped, so that a replay run without the key cannot decode one; a reply
// without a key is kept byte for byte, its escapes ("\"" of a JSON answer) as they are.
func TestMaskReply(t *testing.T) {
	m, _ := oaAdapter(t, Config{BaseURL: "http://127.0.0.1:1/v1"}, oaQATask())
	for _, body := range []string{
		`{"choices":[{"message":{"content":"{\"answer\":\"` + strings.ReplaceAll(escaped(oaKey), `\u`, `\\u`) + `\"}"}}]}`,
		`{"choices":[{"message":{"content":"{\"answer\":\"` + escaped(oaKey) + `\"}"}}]}`,
		`{"choices":[{"message":{"content":"` + oaKey + `"}}]}`,
		`{"x":"` + escaped(oaKey[:10]) + oaKey[10:] + `"}`,
	} {
		got := m.c.secrets.Deep([]byte(body))
		if bytes.Contains(got, []byte(oaKey)) || bytes.Contains(redact.PlainJSON(got), []byte(oaKey)) || decodesToKey(got) {
			t.Errorf("%s kept as %s", body, got)
		}
	}
	for _, body := range []string{
		`{"choices":[{"message":{"content":"{\"answer\":\"caf\u00e9\"}"}}]}`,
		`{"choices":[{"message":{"content":"{\"answer\":\"42\"}"}}]}`,
		`not json \u0073`,
	} {
		if got := m.c.secrets.Deep([]byte(body)); string(got) != body {
			t.Errorf("a reply with no key changed: %s -> %s", body, got)
		}
	}
}

// decodesToKey says a JSON body has a string that, read as JSON text in turn (a model's
// JSON answer in a reply's content), spells out the key.
func decodesToKey(body []byte) bool {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return strings.Contains(x, oaKey) || bytes.Contains(redact.PlainJSON([]byte(x)), []byte(oaKey))
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// TestBatchDone: a batch's finished requests by each provider's request_counts, at most the
// batch's requests; the other provider's keys count nothing.
func TestBatchDone(t *testing.T) {
	for _, c := range []struct {
		kind     Kind
		requests int
		counts   map[string]int
		want     int
	}{
		{KindOpenAI, 500, map[string]int{"total": 500, "completed": 120, "failed": 3}, 123},
		{KindOpenAI, 500, map[string]int{"succeeded": 7}, 0},
		{KindAnthropic, 10, map[string]int{"processing": 2, "succeeded": 5, "errored": 1, "canceled": 1, "expired": 1}, 8},
		{KindAnthropic, 10, map[string]int{"completed": 9}, 0},
		{KindOpenAI, 3, map[string]int{"completed": 5}, 3},
		{KindOpenAI, 0, nil, 0},
	} {
		if got := (BatchInfo{Kind: c.kind, Requests: c.requests, Detail: BatchDetail{Counts: c.counts}}).Done(); got != c.want {
			t.Errorf("%s %v of %d: done %d, want %d", c.kind, c.counts, c.requests, got, c.want)
		}
	}
}
