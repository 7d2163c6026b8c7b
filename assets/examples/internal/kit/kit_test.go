package kit

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestServeIO(t *testing.T) {
	in := `{"id": 0, "input": {"text": "hola"}}` + "\n" + `{"id": 7, "input": {"text": ""}}` + "\n" + `{"id": 8, "input": {"n": 1}}` + "\n"
	var out strings.Builder
	err := ServeIO(strings.NewReader(in), &out, func(input map[string]any) (map[string]any, error) {
		s, err := String(input, "text")
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, errors.New("empty text")
		}
		return map[string]any{"upper": strings.ToUpper(s)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":0,"output":{"upper":"HOLA"}}` + "\n" + `{"error":"empty text","id":7}` + "\n" + `{"error":"input field \"text\" is not a string","id":8}` + "\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err := ServeIO(strings.NewReader("not json\n"), &out, nil); err == nil {
		t.Fatal("a bad line was accepted")
	}
}

func TestRunAndPipe(t *testing.T) {
	out, err := Run(5*time.Second, []byte("abc"), "tr", "a-z", "A-Z")
	if err != nil || string(out) != "ABC" {
		t.Fatalf("Run: %q, %v", out, err)
	}
	if _, err := Run(5*time.Second, nil, "sh", "-c", "echo boom >&2; exit 3"); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("Run of a failing program: %v", err)
	}
	p, err := StartPipe('\n', "cat")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"one", "two", ""} {
		if a, err := p.Ask(q); err != nil || a != q {
			t.Fatalf("Ask(%q) = %q, %v", q, a, err)
		}
	}
	if _, err := p.Ask("a\nb"); err == nil {
		t.Fatal("a request with the delimiter was sent")
	}
	p.Close()
	if _, err := p.Ask("late"); !errors.Is(err, ErrPipeClosed) {
		t.Fatalf("Ask after Close: %v", err)
	}
}
