package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// TestRefusedSystem reads the server's refusals that name one system of a request.
func TestRefusedSystem(t *testing.T) {
	refusal := func(msg string) error { return &client.Error{Status: 422, Code: "missing_binding", Message: msg} }
	for _, c := range []struct {
		name        string
		err         error
		i           int
		label, why  string
		names, want bool
	}{
		{"a binding that needs a package", refusal(`systems[0] (langdetect): binding "langdetect" needs langdetect, not installed here: apt-get install python3-langdetect`),
			0, "langdetect", "its binding needs langdetect, not installed here: apt-get install python3-langdetect", true, true},
		{"a binding whose program is missing, in its runtime file", refusal(`systems[1] (ghost): benchy.runtime.yaml: binding "ghost" runs no-such-adapter, which does not exist`),
			1, "ghost", "its binding in benchy.runtime.yaml runs no-such-adapter, which does not exist", true, true},
		{"a model's provider", refusal(`systems[2] (local/llama3.2): no provider "local"`), 2, "local/llama3.2", `no provider "local"`, true, true},
		{"a refusal without the label", refusal("systems[1]: the system file has 2 problem(s)"), 1, "", "the system file has 2 problem(s)", false, true},
		{"a refusal of the whole request", refusal("17 systems: a request runs at most 16"), 0, "", "", false, false},
		{"not the server's answer", errors.New("offline"), 0, "", "", false, false},
		{"a broken prefix", refusal("systems[x]: why"), 0, "", "", false, false},
	} {
		i, label, why, ok := refusedSystem(c.err)
		if ok != c.want || ok && (i != c.i || label != c.label || why != c.why) {
			t.Errorf("%s: %d %q %q %v, want %d %q %q %v", c.name, i, label, why, ok, c.i, c.label, c.why, c.want)
		}
	}
}

// TestStart: a launch drops each system the server refuses by name and starts the rest;
// a refusal of the request itself stops it; every system refused starts nothing.
func TestStart(t *testing.T) {
	// server refuses the first system of a request that is in broken, as POST /api/runs
	// refuses a request whose system cannot run: whole, naming it.
	server := func(broken ...string) (Starter, *int) {
		calls := 0
		return func(_ context.Context, req api.StartRun) (api.Started, error) {
			calls++
			if len(req.Systems) > 16 {
				return api.Started{}, &client.Error{Status: 400, Code: api.BadRequest, Message: "too many systems"}
			}
			var ids []string
			for i, s := range req.Systems {
				if slices.Contains(broken, s.System) {
					return api.Started{}, &client.Error{Status: 422, Code: "missing_binding",
						Message: fmt.Sprintf("systems[%d] (%s): binding %q runs ./x, which does not exist", i, s.System, s.System)}
				}
				ids = append(ids, "run-"+s.System)
			}
			if len(ids) == 0 {
				ids = []string{"run-own"}
			}
			return api.Started{ID: ids[0], IDs: ids}, nil
		}, &calls
	}
	systems := func(names ...string) api.StartRun {
		req := api.StartRun{Benchmark: "b.yaml"}
		for _, n := range names {
			req.Systems = append(req.Systems, api.SystemChoice{System: n})
		}
		return req
	}
	for _, c := range []struct {
		name     string
		broken   []string
		req      api.StartRun
		ids      []string
		notRun   []string
		err      bool
		requests int
	}{
		{"nothing refused", nil, systems("a", "b"), []string{"run-a", "run-b"}, nil, false, 1},
		{"langdetect not installed: the baseline runs", []string{"langdetect"}, systems("langdetect", "baseline"),
			[]string{"run-baseline"}, []string{"langdetect was not run: its binding runs ./x, which does not exist"}, false, 2},
		{"two refused, one after the other", []string{"a", "c"}, systems("a", "b", "c"), []string{"run-b"},
			[]string{"a was not run: its binding runs ./x, which does not exist", "c was not run: its binding runs ./x, which does not exist"}, false, 3},
		{"every system refused: nothing starts", []string{"a"}, systems("a"), nil, []string{"a was not run: its binding runs ./x, which does not exist"}, false, 1},
		{"the request refused: no retry", nil, systems(slices.Repeat([]string{"a"}, 17)...), nil, nil, true, 1},
		{"no systems: the benchmark's own", nil, api.StartRun{Benchmark: "b.yaml"}, []string{"run-own"}, nil, false, 1},
	} {
		start, calls := server(c.broken...)
		ids, notRun, err := Start(context.Background(), start, c.req, nil)
		var notes []string
		for _, n := range notRun {
			notes = append(notes, n.Text())
		}
		if !slices.Equal(ids, c.ids) || !slices.Equal(notes, c.notRun) || (err != nil) != c.err || *calls != c.requests {
			t.Errorf("%s: ids %v, not run %q, err %v after %d requests; want %v, %q, err %v after %d", c.name, ids, notes, err, *calls, c.ids, c.notRun, c.err, c.requests)
		}
	}
}
