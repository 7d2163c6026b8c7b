package api

import (
	"net/url"
	"strings"
)

// The API's paths, built from typed arguments: ids and workspace paths are escaped here,
// once, and a query is encoded with its values.
const (
	OntologyPath   = "/api/ontology"
	CompilePath    = "/api/compile"
	BindingsPath   = "/api/bindings"
	BenchmarksPath = "/api/benchmarks"
	RunsPath       = "/api/runs"
)

// escapeSlashed escapes each segment of a slash-separated workspace path.
func escapeSlashed(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// withQuery appends q to path p, when it has any value.
func withQuery(p string, q url.Values) string {
	if len(q) == 0 {
		return p
	}
	return p + "?" + q.Encode()
}

// BindingsFor is the bindings of the runtime file benchmark (a workspace path) binds
// through; BindingsPath alone names the workspace root's.
func BindingsFor(benchmark string) string {
	return withQuery(BindingsPath, url.Values{"benchmark": {benchmark}})
}

// BenchmarkPath is the benchmark file at workspace path p (GET reads it, PUT saves it).
func BenchmarkPath(p string) string { return BenchmarksPath + "/" + escapeSlashed(p) }

// FilePath is the upload of the workspace file at path p (PUT).
func FilePath(p string) string { return "/api/files/" + escapeSlashed(p) }

// RunsQueryPath lists runs filtered by q (benchmark, ir_hash, limit).
func RunsQueryPath(q url.Values) string { return withQuery(RunsPath, q) }

// RunPath is run id.
func RunPath(id string) string { return RunsPath + "/" + url.PathEscape(id) }

// ResultsPath is a page of run id's results, or its export, as q selects (status, after,
// limit; format).
func ResultsPath(id string, q url.Values) string { return withQuery(RunPath(id)+"/results", q) }

// EventsPath is the event stream of run id.
func EventsPath(id string) string { return RunPath(id) + "/events" }

// CancelPath cancels run id (POST).
func CancelPath(id string) string { return RunPath(id) + "/cancel" }

// ResumePath resumes run id (POST).
func ResumePath(id string) string { return RunPath(id) + "/resume" }

// ComparePath compares run b with run a.
func ComparePath(a, b string) string {
	return withQuery(RunsPath+"/compare", url.Values{"a": {a}, "b": {b}})
}

// LeaderboardPath is the leaderboard of the benchmark file at workspace path benchmark, or
// of the hashes q names (benchmark_hash, dataset_digest).
const LeaderboardPath = "/api/leaderboard"

// LeaderboardFor is the leaderboard of q: benchmark, or benchmark_hash and dataset_digest.
func LeaderboardFor(q url.Values) string { return withQuery(LeaderboardPath, q) }

// GridFor is a page of a leaderboard's examples, as q selects (the leaderboard's keys and
// filter, status, after, limit).
func GridFor(q url.Values) string { return withQuery(LeaderboardPath+"/examples", q) }
