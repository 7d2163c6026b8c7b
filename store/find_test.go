package store

import (
	"errors"
	"testing"
)

// TestFindRun: a run is found by its id, or by the end of it the web app shows (six
// characters or more, any case); an end two runs share, a short one, and one of no run
// are refused.
func TestFindRun(t *testing.T) {
	s, _ := open(t)
	a := create(t, s, "a.yaml")
	b := create(t, s, "b.yaml")
	for _, tt := range []struct {
		in, want string
		err      error
	}{
		{a.ID, a.ID, nil},
		{a.ID[len(a.ID)-10:], a.ID, nil},
		{"…" + b.ID[len(b.ID)-10:], b.ID, nil},
		{toLower(b.ID[len(b.ID)-8:]), b.ID, nil},
		{a.ID[len(a.ID)-3:], "", ErrNotFound},
		{"ZZZZZZZZZZ", "", ErrNotFound},
		{"%%%%%%%", "", ErrNotFound},
	} {
		got, err := s.FindRun(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("FindRun(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	// Two ids with one end: the second made by hand.
	if _, err := s.w.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at)
		SELECT '00000000000000' || substr(id, 15), benchmark, ir, ir_hash, ai_system, binding, options, status, created_at FROM runs WHERE id = ?`, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindRun(a.ID[len(a.ID)-10:]); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("an end two runs share: %v, want ErrAmbiguous", err)
	}
	if got, err := s.FindRun(a.ID); got != a.ID || err != nil {
		t.Errorf("the full id of a run whose end another shares: %q, %v", got, err)
	}
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
