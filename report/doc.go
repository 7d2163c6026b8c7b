// Package report builds the self-contained HTML report of one or more stored runs: one
// file that opens offline in any browser, with no server, script or external URL. It
// identifies each run (benchmark hash, dataset digest, AI-system), gives its score with its
// interval and its counts, draws its charts as inline SVG, ranks the runs of one benchmark
// when several are given, and shows the first failing examples field by field.
//
// What it writes is bounded whatever it is given: each name it draws (a member, a
// path, a label) at most MaxLabel characters and each value MaxValue bytes, an example at
// most MaxFields fields of its input and output, a run at most MaxFields dimensions and
// MaxMatrices confusion matrices (each folded to its most frequent members), the
// examples of all runs at most MaxExampleBytes, the head at most MaxLinks links, and the
// whole report MaxReportBytes, with a line where each was cut; Write streams run by run
// (Report.Load), so one run is in memory at a time.
//
// It is pure: it takes the data as structs (api.Run, api.Charts, api.Result, api.Leaderboard
// and the IR's program) and writes bytes, so it is tested without a store; `benchy report`
// and the server's GET /api/report read the store and feed it. Align, which lines up an
// example's expected output and prediction field by field in declaration order, is shared
// with the CLI's JUnit file.
package report
