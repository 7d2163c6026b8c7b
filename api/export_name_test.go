package api

import (
	"net/url"
	"strings"
	"testing"
)

// TestExportFileName: a filtered export's file name says its filter, in safe characters
// and bounded; the whole run's is benchy-ID.ext.
func TestExportFileName(t *testing.T) {
	id := "01JABCDEFGHJKMNPQRSTVWXYZ0"
	for _, c := range []struct {
		q    url.Values
		f    string
		want string
	}{
		{nil, "csv", "benchy-" + id + ".csv"},
		{url.Values{"imperfect": {"1"}}, "csv", "benchy-" + id + "-imperfect.csv"},
		{url.Values{"wrong": {"total"}}, "csv", "benchy-" + id + "-wrong-total.csv"},
		{url.Values{"status": {"valid"}}, "jsonl", "benchy-" + id + "-status-valid.jsonl"},
		{url.Values{"q": {"ACME / Ltd \"x\""}}, "json", "benchy-" + id + "-q.json"},
		{url.Values{"sort": {"score"}, "imperfect": {"1"}, "code": {"provider_error"}}, "csv", "benchy-" + id + "-imperfect-code-provider_error-sort-score.csv"},
		{url.Values{"wrong": {"address.city"}}, "csv", "benchy-" + id + "-wrong-address.city.csv"},
		{url.Values{"field": {"kind"}, "expected": {"a/b"}, "predicted": {"ü"}}, "csv", "benchy-" + id + "-field-kind-expected-a_b-predicted-__.csv"},
	} {
		if got := ExportFileName(id, c.f, c.q); got != c.want {
			t.Errorf("%v: %q, want %q", c.q, got, c.want)
		}
	}
	long := ExportFileName(id, "csv", url.Values{"code": {strings.Repeat("x", 500)}})
	if len(long) > len("benchy-"+id+"-")+maxNameFilter+len(".csv") {
		t.Errorf("a long filter makes a name of %d bytes", len(long))
	}
}
