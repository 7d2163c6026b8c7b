package api

import "net/url"

// ReportRoute answers the self-contained HTML report of the runs its ?run= values name.
const ReportRoute = "/api/report"

// ReportPath is the HTML report of runs ids, each a ?run= in order, with the server's
// default number of failing examples: one run's report, or that of several runs of one
// benchmark with their leaderboard. The server answers it as an attachment.
func ReportPath(ids ...string) string { return withQuery(ReportRoute, url.Values{"run": ids}) }
