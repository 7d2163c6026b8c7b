package client

import "testing"

// TestAttachmentName: the name a report download is saved as is the server's
// Content-Disposition filename, quoted or not; none, a malformed header or one naming a
// directory falls back.
func TestAttachmentName(t *testing.T) {
	for _, c := range []struct{ header, want string }{
		{`attachment; filename="benchy-report.html"`, "benchy-report.html"},
		{`attachment; filename=run-01A.html`, "run-01A.html"},
		{`attachment; filename="a b.html"`, "a b.html"},
		{`attachment`, ReportName},
		{``, ReportName},
		{`attachment; filename="../x.html"`, ReportName},
		{`attachment; filename="dir\\x.html"`, ReportName},
		{`attachment; filename=`, ReportName},
	} {
		if got := AttachmentName(c.header, ReportName); got != c.want {
			t.Errorf("AttachmentName(%q) = %q, want %q", c.header, got, c.want)
		}
	}
}
