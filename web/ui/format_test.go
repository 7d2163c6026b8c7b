package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
)

func TestFormatNumbers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Score(0.85714), "0.8571"},
		{Score(1), "1.0000"},
		{Signed(0.0123), "+0.0123"},
		{Signed(-0.0123), "-0.0123"},
		{Signed(0), "0.0000"},
		{ScorePtr(nil), NoValue},
		{Pct(0.875), "87.5%"},
		{Points(0.125), "+12.5 pts"},
		{Points(-0.05), "-5.0 pts"},
		{Points(0.00001), "±0.0 pts"},
		{Int(0), "0"},
		{Int(999), "999"},
		{Int(1000), "1,000"},
		{Int(1234567), "1,234,567"},
		{Int(-1234), "-1,234"},
		{USD(0.066), "$0.0660"},
		{USD(0), "$0.0000"},
		{USD(0.00001), "< $0.0001"},
		{USD(12.5), "$12.5000"},
		{Duration(450 * time.Millisecond), "450 ms"},
		{Duration(45 * time.Second), "45 s"},
		{Duration(200 * time.Second), "3 min 20 s"},
		{Duration(3 * time.Minute), "3 min"},
		{Duration(125 * time.Minute), "2 h 5 min"},
		{Interval(api.Interval{Low: 0.7, High: 0.95}), "[0.7000, 0.9500]"},
		{SignedInterval(api.Interval{Low: -0.01, High: 0.02}), "[-0.0100, +0.0200]"},
		{Level(api.Interval{Level: 0.95}), "95% CI"},
		{Level(api.Interval{}), "CI"},
		{BarWidth(0.5), "50.00%"},
		{BarWidth(2), "100.00%"},
		{BarWidth(-1), "0.00%"},
		{Plural(1, "problem"), "1 problem"},
		{ShortHash("sha256:3f2a9c01d4e7aa55"), "3f2a9c01d4e7"},
		{ShortHash("abc"), "abc"},
		{ShortHash(""), ""},
		{Plural(1000, "example"), "1,000 examples"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestFormatClipAndJSON(t *testing.T) {
	if s, ok := Clip("short", 10); s != "short" || ok {
		t.Errorf("Clip short: %q %v", s, ok)
	}
	if s, ok := Clip("abcdefghij", 10); s != "abcdefghij" || ok {
		t.Errorf("Clip exact: %q %v", s, ok)
	}
	if s, ok := Clip("abcdefghijk", 10); s != "abcdefghi…" || !ok {
		t.Errorf("Clip long: %q %v", s, ok)
	}
	if s, _ := Clip("ñandú ñandú ñandú", 6); s != "ñandú…" {
		t.Errorf("Clip runes: %q", s)
	}
	for in, want := range map[string]string{
		"":                                     "",
		"null":                                 "null",
		"{ \"a\" : [1, 2],\n \"b\": \"x y\" }": `{"a":[1,2],"b":"x y"}`,
		"not json":                             "not json",
	} {
		if got := CompactJSON(json.RawMessage(in)); got != want {
			t.Errorf("CompactJSON(%q) = %q, want %q", in, got, want)
		}
	}
	if Dotted([]string{"supplier", "name"}) != "supplier.name" || Dotted(nil) != NoValue {
		t.Error("Dotted")
	}
	if StatusText("invalid_output") != "invalid output" || StatusText("") != "unknown" {
		t.Error("StatusText")
	}
}

func TestURLs(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{RunsURL("slow/benchmark.yaml", ""), "/runs?benchmark=slow%2Fbenchmark.yaml"},
		{RunsURL("a b.yaml", "01ABC"), "/runs?benchmark=a+b.yaml&run=01ABC"},
		{RunsURL("", ""), "/runs"},
		{ResultsURL("01ABC", ""), "/results?run=01ABC"},
		{ResultsURL("01ABC", "invalid_output"), "/results?run=01ABC&status=invalid_output"},
		{CompareURL("A", "B"), "/compare?a=A&b=B"},
		{CompareURL("A", ""), "/compare?a=A"},
		{CompareURL("", ""), "/compare"},
		{ComparePickURL("dir/b.yaml"), "/compare?benchmark=dir%2Fb.yaml"},
		{EditorURL("x/b.yaml"), "/?path=x%2Fb.yaml"},
		{RunsBatchURL("b.yaml", []string{"01A", "01B"}), "/runs?benchmark=b.yaml&run=01A&run=01B"},
		{RunsBatchURL("", nil), "/runs"},
		{LeaderboardURL("language-id/benchmark.yaml", ""), "/leaderboard?benchmark=language-id%2Fbenchmark.yaml"},
		{LeaderboardURL("b.yaml", "sha256:ab"), "/leaderboard?benchmark=b.yaml&dataset=sha256%3Aab"},
		{LeaderboardURL("", ""), "/leaderboard"},
		{GridURL("b.yaml", "", "disagree", ""), "/leaderboard/examples?benchmark=b.yaml&filter=disagree"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestIdentities: every hash a page shows says what it names, and its whole value.
func TestIdentities(t *testing.T) {
	for _, k := range []Identity{BenchmarkHash, DatasetDigest, SystemHash, IRHash} {
		title := k.Title("sha256:44b7c89dce6a0001")
		if !strings.HasPrefix(title, k.Name+": ") || !strings.HasSuffix(title, "\nsha256:44b7c89dce6a0001") || k.Means == "" {
			t.Errorf("%s: title %q", k.Name, title)
		}
		if k.Show("x", "sha256:44b7c89dce6a0001") == nil || k.ShowOr("", "", "not yet known") == nil {
			t.Errorf("%s: nothing shown", k.Name)
		}
	}
	if got := RunSystem(&api.Run{Binding: "local", System: &api.System{Label: "local/llama3.2"}}); got != "local/llama3.2" {
		t.Errorf("RunSystem of a model run: %q", got)
	}
	if got := RunSystem(&api.Run{Binding: "langdetect"}); got != "langdetect" {
		t.Errorf("RunSystem of a run stored before systems: %q", got)
	}
}
