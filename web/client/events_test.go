package client

import (
	"strings"
	"testing"
)

func TestReadEvents(t *testing.T) {
	in := ": hello\n\nevent: progress\ndata: {\"done\":1}\n\nevent: example\ndata: a\ndata: b\n\ndata: plain\n\nevent: end\ndata: {}\n\n"
	var got []string
	err := readEvents(strings.NewReader(in), func(e sse) bool {
		got = append(got, e.name+"="+string(e.data))
		return e.name != "end"
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`progress={"done":1}`, "example=a\nb", "message=plain", "end={}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestDecodeRunEvent: each event of a run's stream decodes into its api type; an event
// of another name or with broken data is skipped, as the runs page always skipped them.
func TestDecodeRunEvent(t *testing.T) {
	ev, ok := decodeRunEvent(sse{"progress", []byte(`{"done":3,"total":10,"summary":{"examples":3,"valid":2},"rate":1.5}`)})
	if !ok || ev.Progress == nil || ev.Progress.Done != 3 || ev.Progress.Summary.Valid != 2 || ev.Done != nil {
		t.Errorf("progress: %+v %v", ev, ok)
	}
	ev, ok = decodeRunEvent(sse{"done", []byte(`{"status":"aborted","summary":null,"error":{"code":"bad_data","file":"d.jsonl","line":3}}`)})
	if !ok || ev.Done == nil || ev.Done.Status != "aborted" || ev.Done.Error.File != "d.jsonl" {
		t.Errorf("done: %+v %v", ev, ok)
	}
	ev, ok = decodeRunEvent(sse{"skipped", []byte(`{"from":4,"to":9,"count":6}`)})
	if !ok || ev.Skipped == nil || ev.Skipped.Count != 6 {
		t.Errorf("skipped: %+v %v", ev, ok)
	}
	for _, e := range []sse{{"message", []byte(`{}`)}, {"progress", []byte(`not json`)}, {"done", nil}} {
		if _, ok := decodeRunEvent(e); ok {
			t.Errorf("%s %q: decoded", e.name, e.data)
		}
	}
}
