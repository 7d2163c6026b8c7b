package ui

import (
	"net/url"
)

// Links between the pages: each page's address, from what it shows.

// RunsURL is the runs page of a benchmark, attached to run id when it is set.
func RunsURL(benchmark, id string) string { return pageURL("/runs", "benchmark", benchmark, "run", id) }

// RunsBatchURL is the runs page of a benchmark following runs ids side by side (the runs
// of one launch); with one id it is RunsURL.
func RunsBatchURL(benchmark string, ids []string) string {
	q := url.Values{}
	if benchmark != "" {
		q.Set("benchmark", benchmark)
	}
	for _, id := range ids {
		q.Add("run", id)
	}
	if len(q) == 0 {
		return "/runs"
	}
	return "/runs?" + q.Encode()
}

// LeaderboardURL is the leaderboard of a workspace benchmark, on dataset (a digest) when
// set; without a benchmark, the list of the workspace's leaderboards.
func LeaderboardURL(benchmark, dataset string) string {
	return pageURL("/leaderboard", "benchmark", benchmark, "dataset", dataset)
}

// GridURL is the example grid of a benchmark's leaderboard: its examples with each
// system's prediction side by side, filtered by filter and status when set.
func GridURL(benchmark, dataset, filter, status string) string {
	return pageURL("/leaderboard/examples", "benchmark", benchmark, "dataset", dataset, "filter", filter, "status", status)
}

// ResultsURL is the results page of run id, filtered by example status when set.
func ResultsURL(id, status string) string {
	q := url.Values{"run": {id}}
	if status != "" {
		q.Set("status", status)
	}
	return "/results?" + q.Encode()
}

// CompareURL is the comparison page of runs a and b (either may be empty).
func CompareURL(a, b string) string { return pageURL("/compare", "a", a, "b", b) }

// ComparePickURL is the comparison page choosing two runs of benchmark.
func ComparePickURL(benchmark string) string { return pageURL("/compare", "benchmark", benchmark) }

// pageURL is page with the query of the key/value pairs whose value is set.
func pageURL(page string, kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return page
	}
	return page + "?" + q.Encode()
}

// EditorURL is the editor's page of a workspace benchmark.
func EditorURL(p string) string { return "/?path=" + url.QueryEscape(p) }
