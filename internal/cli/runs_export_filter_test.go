package cli_test

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestRunsExportFiltered: runs export's filter flags select what the API's filter keys
// select (the invoice run: 6 valid, 2 invalid outputs, 2 execution errors), each result with
// its input and expected output; the CSV has input.x, expected.y, prediction.y columns in
// declaration order; a bad value is a usage error saying what is allowed.
func TestRunsExportFiltered(t *testing.T) {
	dir, id := storedRun(t)
	indexes := func(args ...string) []int {
		t.Helper()
		args = append([]string{"runs", "export", "--workspace", dir, "--format", "jsonl"}, args...)
		code, stdout, stderr := runBenchy(t, append(args, id)...)
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, code, stderr)
		}
		var got []int
		for l := range strings.Lines(stdout) {
			var r struct {
				Index           int
				Input, Expected map[string]any
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil || r.Input == nil || r.Expected == nil {
				t.Fatalf("%q: %v: %s", args, err, l)
			}
			got = append(got, r.Index)
		}
		return got
	}
	for _, c := range []struct {
		args []string
		want []int
	}{
		{nil, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{[]string{"--status", "execution_error"}, []int{7, 8}},
		{[]string{"--imperfect"}, []int{2, 3, 4, 5, 6, 7, 8}},
		{[]string{"--wrong", "supplier"}, []int{3, 4}},
		{[]string{"--code", "adapter_error"}, []int{7, 8}},
		{[]string{"--q", "Gamma"}, []int{2}},
		{[]string{"--status", "valid", "--imperfect", "--sort", "score"}, []int{4, 2, 3}},
	} {
		if got := indexes(c.args...); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.args, got, c.want)
		}
	}

	code, stdout, stderr := runBenchy(t, "runs", "export", "--workspace", dir, "--format", "csv", "--wrong", "supplier", id)
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(recs) != 3 {
		t.Fatalf("csv: exit %d %v\n%s%s", code, err, stdout, stderr)
	}
	head := strings.Join(recs[0], ",")
	if want := "input.image,expected.invoice_number,expected.date,expected.supplier,expected.subtotal,expected.total,prediction.invoice_number,prediction.date,prediction.supplier,prediction.subtotal,prediction.total"; !strings.HasSuffix(head, want) {
		t.Errorf("csv header %s\nwant it to end %s", head, want)
	}
	if got := recs[1][len(recs[1])-8]; got != "Delta" { // expected.supplier of example 3
		t.Errorf("expected.supplier of example 3: %q", got)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--status", "bogus"}, `--status is valid, invalid_output or execution_error, not "bogus"`},
		{[]string{"--wrong", "nope"}, `--wrong "nope" is not a dimension of this run's benchmark; its dimensions are invoice_number, date, supplier, subtotal, total`},
		{[]string{"--sort", "size"}, `--sort is index or score, not "size"`},
		{[]string{"--code", ""}, `--code is empty`},
		{[]string{"--field", "total", "--expected", "1", "--predicted", "2"}, `--field "total": this run's benchmark has no enum dimension, so no confusion matrix`},
		{[]string{"--field", "total"}, `a confusion cell is --field, --expected and --predicted together`},
	} {
		code, _, stderr := runBenchy(t, append(append([]string{"runs", "export", "--workspace", dir}, c.args...), id)...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
