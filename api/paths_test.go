package api

import (
	"net/url"
	"testing"
)

// TestPaths: the builders escape ids and workspace paths segment by segment and encode
// their queries, so that each names the route the server declares.
func TestPaths(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{BenchmarkPath("dir with space/b#1.yaml"), "/api/benchmarks/dir%20with%20space/b%231.yaml"},
		{FilePath("data/x?.jsonl"), "/api/files/data/x%3F.jsonl"},
		{RunPath("01A/B"), "/api/runs/01A%2FB"},
		{ResultsPath("01A", url.Values{"status": {InvalidOutput}, "after": {"-1"}}), "/api/runs/01A/results?after=-1&status=invalid_output"},
		{ResultsPath("01A", nil), "/api/runs/01A/results"},
		{ResultsPath("01A", url.Values{"format": {"csv"}}), "/api/runs/01A/results?format=csv"},
		{EventsPath("01A"), "/api/runs/01A/events"},
		{CancelPath("01A"), "/api/runs/01A/cancel"},
		{ResumePath("01A"), "/api/runs/01A/resume"},
		{ComparePath("a&", "b"), "/api/runs/compare?a=a%26&b=b"},
		{RunsQueryPath(url.Values{"benchmark": {"a b.yaml"}, "limit": {"5"}}), "/api/runs?benchmark=a+b.yaml&limit=5"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// TestCodes: every code has a meaning and is the snake_case its constant spells.
func TestCodes(t *testing.T) {
	if len(Codes) < 25 {
		t.Errorf("%d codes", len(Codes))
	}
	for c, meaning := range Codes {
		if meaning == "" || !Registered(c) {
			t.Errorf("code %q: meaning %q", c, meaning)
		}
		for _, r := range c {
			if (r < 'a' || r > 'z') && r != '_' {
				t.Errorf("code %q is not snake_case", c)
				break
			}
		}
	}
}
