package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestFindRun: a run is found by its id, or by a start or an end of it (six characters or
// more, any case, the web app's "…" before an end allowed); a part several runs share,
// as starts, as ends, or a start of one and the end of another, is refused naming at most
// three; a short part, one from the middle, one with other characters and one of no run
// are not found.
func TestFindRun(t *testing.T) {
	s, _ := open(t)
	template := create(t, s, "a.yaml")
	ids := []string{
		"01JQ7AAAAA0000000000KKKKKK", // p1
		"01JQ7AAAAA1111111111MMMMMM", // p2: p1's first ten characters
		"01JQ7ABBBB2222222222MMMMMM", // p3: p2's last six
		"KKKKKK33333333333333NNNNNN", // p4: starts as p1 ends
		"01JQ7ACCCC4444444444PPPPPP", // p5: the fourth run to start 01JQ7A
	}
	for _, id := range ids {
		if _, err := s.w.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at)
			SELECT ?, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at FROM runs WHERE id = ?`, id, template.ID); err != nil {
			t.Fatal(err)
		}
	}
	p1, p2, p3, p4, p5 := ids[0], ids[1], ids[2], ids[3], ids[4]
	for _, tt := range []struct {
		name, in, want string
		err            error
		names          []string // the runs an ambiguous part's error names
	}{
		{"the full id", p1, p1, nil, nil},
		{"the full id in lower case", strings.ToLower(p2), p2, nil, nil},
		{"a start", "01JQ7AAAAA0", p1, nil, nil},
		{"a start in lower case", "01jq7aaaaa1", p2, nil, nil},
		{"a start", "01JQ7AB", p3, nil, nil},
		{"an end", "0KKKKKK", p1, nil, nil},
		{"an end as the web app shows it", "…" + p3[16:], p3, nil, nil},
		{"an end of six in lower case", "nnnnnn", p4, nil, nil},
		{"a start the template's id has", template.ID[:12], template.ID, nil, nil},
		{"a start two runs share", "01JQ7AAAAA", "", ErrAmbiguous, []string{p1, p2}},
		{"five characters four runs start with", "01JQ7", "", ErrNotFound, nil},
		{"an end two runs share", "MMMMMM", "", ErrAmbiguous, []string{p2, p3}},
		{"a start of one and an end of another", "KKKKKK", "", ErrAmbiguous, []string{p1, p4}},
		{"five characters", p5[:5], "", ErrNotFound, nil},
		{"a start with spaces around, as copied from a table", " \t01JQ7AAAAA0 \n", p1, nil, nil},
		{"the full id with spaces around", " " + p4 + " ", p4, nil, nil},
		{"the middle of an id", "AAAAA0000000", "", ErrNotFound, nil},
		{"wildcards", "01JQ7_", "", ErrNotFound, nil},
		{"percent signs", "%%%%%%%", "", ErrNotFound, nil},
		{"no run's", "ZZZZZZZZZZ", "", ErrNotFound, nil},
	} {
		got, err := s.FindRun(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("%s: FindRun(%q) = %q, %v; want %q, %v", tt.name, tt.in, got, err, tt.want, tt.err)
			continue
		}
		for _, id := range tt.names {
			if !strings.Contains(err.Error(), id) {
				t.Errorf("%s: FindRun(%q): %v does not name %s", tt.name, tt.in, err, id)
			}
		}
	}
	// A part too short says how much to give, not that there is no such run.
	for _, in := range []string{"01JQ7", " 01JQ7 ", "…PPPP", ""} {
		_, err := s.FindRun(in)
		want := fmt.Sprintf("give at least %d characters of the run's id", MinFind)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), want) {
			t.Errorf("FindRun(%q): %v; want it to say %q", in, err, want)
		}
	}
	// Four runs start 01JQ7A: the message names three, the latest ids, and says there are more.
	_, err := s.FindRun("01JQ7A")
	if !errors.Is(err, ErrAmbiguous) || strings.Count(err.Error(), "01JQ7A") != 4 || !strings.Contains(err.Error(), ", ...") || strings.Contains(err.Error(), p1) {
		t.Errorf("a start four runs share: %v; want it to name %s, %s and %s and say there are more", err, p5, p3, p2)
	}
}
