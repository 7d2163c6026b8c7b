package server

import (
	"net/http"

	"github.com/benchy-eval/benchy/api"
	htmlreport "github.com/benchy-eval/benchy/report"
	"github.com/benchy-eval/benchy/report/fromstore"
)

// maxReportRuns bounds the runs of one report: each costs its charts' and its failing
// examples' reads, and its part of the page (charts, at most report.MaxFields rows and
// report.MaxMatrices matrices; the examples of all runs at most report.MaxExampleBytes;
// the whole answer at most report.MaxReportBytes, where 20 runs of an enum of 20 members
// of 49,000 "&" answered 3.92 GB in 19.6 s).
const maxReportRuns = 20

// maxReports is how many reports are written at once. A report streams, one run in memory
// at a time (report.Write), but each still reads its runs' results: 40 built at once took
// the server from 82 to 457 MB before it streamed, and a GET any page can send (an <img>
// of this URL on loopback) must not buy that. More answer 503 busy with Retry-After.
const maxReports = 2

// report answers GET /api/report?run=ID&run=ID...[&examples=N]: the self-contained HTML
// report of those runs as a download, the same file `benchy report` writes. Each ID may be
// a start or an end of a run's id, as benchy report takes it (store.FindRun): one several
// runs share is a 400 that names them (answerError), one no run has a 404. A CSP that
// allows nothing but the page's own inline style keeps it inert even if opened from here.
func (s *Server) report(w http.ResponseWriter, r *http.Request) error {
	select {
	case s.reports <- struct{}{}:
		defer func() { <-s.reports }()
	default:
		busy := refuse(http.StatusServiceUnavailable, api.Busy, "%d reports are being built, the most this server builds at once; retry in a few seconds", maxReports)
		busy.retry = "5"
		return busy
	}
	q := r.URL.Query()
	ids := q["run"]
	if len(ids) == 0 || len(ids) > maxReportRuns {
		return refuse(http.StatusBadRequest, api.BadRequest, "name from 1 to %d runs, each as ?run=ID", maxReportRuns)
	}
	n, err := intParam(q, "examples", htmlreport.DefaultExamples, 0)
	if err != nil {
		return err
	}
	full := make([]string, len(ids))
	for i, id := range ids {
		if full[i], err = s.st.FindRun(id); err != nil {
			return storeError(err)
		}
	}
	rep, err := fromstore.Gather(s.st, full, min(n, 1000)) // the runs' records; the rest as written
	if err != nil {
		return storeError(err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="benchy-report.html"`)
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if err := htmlreport.Write(w, rep); err != nil { // the client gone, or a run's read failed midway
		s.logf("report of %d runs: %v", len(full), err)
	}
	return nil
}
