package api

import "testing"

// TestReportPath: each id is a ?run= of its own, in order and escaped, as the server's
// q["run"] reads them.
func TestReportPath(t *testing.T) {
	for _, c := range []struct {
		ids  []string
		want string
	}{
		{[]string{"01A"}, "/api/report?run=01A"},
		{[]string{"01A", "01B&x"}, "/api/report?run=01A&run=01B%26x"},
	} {
		if got := ReportPath(c.ids...); got != c.want {
			t.Errorf("ReportPath(%q) = %s, want %s", c.ids, got, c.want)
		}
	}
}
