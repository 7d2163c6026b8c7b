package web

import (
	"strings"
	"testing"
)

func TestReadEvents(t *testing.T) {
	in := ": hello\n\nevent: progress\ndata: {\"done\":1}\n\nevent: example\ndata: a\ndata: b\n\ndata: plain\n\nevent: end\ndata: {}\n\n"
	var got []string
	err := readEvents(strings.NewReader(in), func(e Event) bool {
		got = append(got, e.Name+"="+string(e.Data))
		return e.Name != "end"
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`progress={"done":1}`, "example=a\nb", "message=plain", "end={}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}
