package cli

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// A CI job runs a benchmark and fails when its score is too low: benchy run --fail-under X
// is that gate, with a verdict line that always says what the exit code says.

// runExitCodes is what benchy run -h says of its exit codes, and their precedence.
const runExitCodes = `
Exit codes:
  0  the run completed (and met --fail-under, if given)
  1  the benchmark or the run failed (invalid input, an aborted run), or the score is under --fail-under
  2  the command line is wrong
  3  every example was an execution error (the AI-system never reached, or no answer with an output):
     the score measures the setup. A run of mostly errors says "failed infrastructure" and exits 0
     unless a gate fails: gate it with --fail-under
  4  the budget (--max-cost, --max-tokens) stopped the run before its last example: its results so far
     are written and it is stored cancelled (reason budget); --resume ID with a larger budget goes on
When several apply, 3 wins over 1 (a broken setup is said before a gate it also fails), and both
over 4 (with several systems, 4 says a budget stopped one of their runs and none failed otherwise).
`

// gate is --fail-under X, with --fail-under-ci: the score (or its interval's upper bound)
// a run must reach.
type gate struct {
	set   bool
	under float64
	ci    bool
}

// define adds the gate's flags to fs.
func (g *gate) define(fs *flag.FlagSet) {
	fs.Func("fail-under", "exit 1 when the benchmark score is below `X` (0 to 1), printing the gate's verdict", func(v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
			return fmt.Errorf("want a number from 0 to 1")
		}
		g.set, g.under = true, x
		return nil
	})
	fs.BoolVar(&g.ci, "fail-under-ci", false, "with --fail-under: exit 1 only when the upper bound of the score's 95% interval is below X (the score is not shown to be under it)")
}

// check prints the verdict of the gate for a completed run's report (label is the system's,
// "" for a run of one) and tells whether it passed. No gate passes silently.
func (g gate) check(w io.Writer, label string, rep *engine.Report) bool {
	if !g.set {
		return true
	}
	what, v, flag := "score", rep.BenchmarkScore, "--fail-under"
	if g.ci {
		what, v, flag = "interval upper bound", rep.Confidence.High, "--fail-under-ci"
	}
	ok := v >= g.under
	op, verdict := ">=", "pass"
	if !ok {
		op, verdict = "<", "FAIL"
	}
	if label != "" {
		label += ": "
	}
	fmt.Fprintf(w, "%sgate: %s %s %s %s (%s): %s\n", label, what, shownAgreeing(v, g.under), op, strconv.FormatFloat(g.under, 'g', -1, 64), flag, verdict)
	return ok
}

// shownAgreeing is v as four decimals, or in full when four decimals would round it to the
// other side of x (0.69996 is not shown as 0.7000 < 0.7).
func shownAgreeing(v, x float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	if r, _ := strconv.ParseFloat(s, 64); (r >= x) != (v >= x) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return s
}

// errorCodes counts a run's execution errors by code, for its health: the most frequent
// code with the message of its first example, in full.
type errorCodes struct {
	counts map[string]*api.CodeCount
	order  []string // first seen first: a tie goes to the earlier code
}

// add counts res if it is an execution error.
func (c *errorCodes) add(res engine.ExampleResult) {
	if res.Status != engine.StatusExecutionError || res.Error == nil {
		return
	}
	code := string(res.Error.Code)
	if c.counts == nil {
		c.counts = map[string]*api.CodeCount{}
	}
	cc, ok := c.counts[code]
	if !ok {
		cc = &api.CodeCount{Code: code, Status: string(res.Status), Message: res.Error.Message}
		c.counts[code] = cc
		c.order = append(c.order, code)
	}
	cc.Count++
}

// health is the run's health over examples: failed infrastructure when more than half of
// them are execution errors.
func (c *errorCodes) health(s engine.Summary) api.Health {
	h := api.Health{Examples: s.Examples, Failed: failedInfra(s)}
	var top *api.CodeCount
	for _, code := range c.order {
		if cc := c.counts[code]; top == nil || cc.Count > top.Count {
			top = cc
		}
	}
	if top != nil {
		h.Code, h.Message, h.Count = top.Code, top.Message, top.Count
	}
	return h
}

// failedInfra tells whether a run of summary s failed its infrastructure: more than half
// of its examples are execution errors (its score is then not a result).
func failedInfra(s engine.Summary) bool {
	return api.FailedInfra(s.Examples, s.ExecutionErrors)
}
