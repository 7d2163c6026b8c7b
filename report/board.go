package report

import (
	"fmt"
	"time"

	"github.com/benchy-eval/benchy/api"
)

// versusView is a leaderboard entry against its leader as the web's leaderboard words
// it: the paired delta, its interval and a verdict ("leader", "significantly worse",
// "significantly better", "not distinguishable").
type versusView struct {
	Delta    string // "" for the leader
	Interval string
	Verdict  string
	Class    string
}

// versus is e against the leader. The leader is the entry without a delta interval, not
// rank 1: a system tied with it shares rank 1 and still has a delta of 0 with an interval.
func versus(e api.LeaderboardEntry) versusView {
	if e.DeltaInterval == nil {
		return versusView{Verdict: "leader", Class: "ok"}
	}
	v := versusView{Delta: signed(e.DeltaVsLeader),
		Interval: "[" + signed(e.DeltaInterval.Low) + ", " + signed(e.DeltaInterval.High) + "]",
		Verdict:  "not distinguishable", Class: "muted"}
	switch {
	case e.Significant && e.DeltaVsLeader < 0:
		v.Verdict, v.Class = "significantly worse", "bad"
	case e.Significant:
		v.Verdict, v.Class = "significantly better", "ok"
	}
	return v
}

// signed is a difference of scores with its sign, "0.0000" for none (never "-0.0000").
func signed(v float64) string {
	s := fmt.Sprintf("%+.4f", v)
	if s == "+0.0000" || s == "-0.0000" {
		return "0.0000"
	}
	return s
}

// when is a report's RFC 3339 time as a reader takes it in, to the second in UTC
// ("2026-12-01 20:02:35 UTC"); a time that does not parse is shown as written.
func when(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}
