package cli_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestRunsExportScoreRange: runs export's --score-min and --score-max select the valid
// results whose score is in the range, as the API's score_min and score_max do (the
// invoice run: 0, 1 and 9 perfect; 2, 3 and 4 valid below 1); a bound that is not a
// number in [0, 1], or a minimum not below the maximum, is a usage error (exit 2) named as
// the flag.
func TestRunsExportScoreRange(t *testing.T) {
	dir, id := storedRun(t)
	for _, c := range []struct {
		args []string
		want []int
	}{
		{[]string{"--score-min", "1", "--score-max", "1"}, []int{0, 1, 9}},
		{[]string{"--score-min", "0", "--score-max", "1", "--imperfect"}, []int{2, 3, 4}},
		{[]string{"--score-max", "1", "--imperfect", "--sort", "score"}, []int{4, 2, 3}},
	} {
		args := append([]string{"runs", "export", "--workspace", dir, "--format", "jsonl"}, c.args...)
		code, stdout, stderr := runBenchy(t, append(args, id)...)
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", c.args, code, stderr)
		}
		got := []int{}
		for l := range strings.Lines(stdout) {
			var r struct{ Index int }
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%q: %v: %s", c.args, err, l)
			}
			got = append(got, r.Index)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.args, got, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--score-min", "2"}, `--score-min is a number from 0 to 1, not "2"`},
		{[]string{"--score-max", "x"}, `--score-max is a number from 0 to 1, not "x"`},
		{[]string{"--score-min", "0.5", "--score-max", "0.5"}, `--score-min 0.5 is not below --score-max 0.5`},
	} {
		code, _, stderr := runBenchy(t, append(append([]string{"runs", "export", "--workspace", dir}, c.args...), id)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
