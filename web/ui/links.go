package ui

import (
	"net/url"
)

// Links between the pages: each page's address, from what it shows.

// RunsURL is the runs page of a benchmark, attached to run id when it is set.
func RunsURL(benchmark, id string) string { return pageURL("/runs", "benchmark", benchmark, "run", id) }

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
