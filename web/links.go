package web

import (
	"net/url"
)

// Links between the pages, and the API's paths and errors as the pages show them.

// runsURL is the runs page of a benchmark, attached to run id when it is set.
func runsURL(benchmark, id string) string { return pageURL("/runs", "benchmark", benchmark, "run", id) }

// resultsURL is the results page of run id, filtered by example status when set.
func resultsURL(id, status string) string {
	q := url.Values{"run": {id}}
	if status != "" {
		q.Set("status", status)
	}
	return "/results?" + q.Encode()
}

// compareURL is the comparison page of runs a and b (either may be empty).
func compareURL(a, b string) string { return pageURL("/compare", "a", a, "b", b) }

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

// editorURL is the editor's page of a workspace benchmark.
func editorURL(p string) string { return "/?path=" + url.QueryEscape(p) }

// apiErrText explains a failed API call for a page that needs the server.
func apiErrText(err error) string {
	if err == nil {
		return ""
	}
	if Offline(err) {
		return "The server cannot be reached. This page needs it; the editor and the ontology work offline."
	}
	if e, ok := err.(*APIError); ok && e.Message != "" {
		return e.Message
	}
	return err.Error()
}

// apiErrCode is the code of an API error, "" for any other error.
func apiErrCode(err error) string {
	if e, ok := err.(*APIError); ok {
		return e.Code
	}
	return ""
}
