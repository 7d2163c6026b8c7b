package cli

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
)

// benchy runs compare --baseline A B --max-regression D is CI's regression gate: it fails
// when B is worse than the baseline A by more than D and the paired interval of the
// difference excludes 0 (a drop the examples show, not noise).

// regressionGate is --max-regression D.
type regressionGate struct {
	set bool
	max float64
}

func (g *regressionGate) define(fs *flag.FlagSet) {
	fs.Func("max-regression", "exit 1 when B's score is below A's by more than `D` (0 to 1) and the paired 95% interval of B-A excludes 0, printing the gate's verdict", func(v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
			return fmt.Errorf("want a number from 0 to 1")
		}
		g.set, g.max = true, x
		return nil
	})
}

// check prints the verdict on comparison c and tells whether it passed.
func (g regressionGate) check(w io.Writer, c api.Comparison) bool {
	if !g.set {
		return true
	}
	iv := c.Interval
	d := strconv.FormatFloat(g.max, 'g', -1, 64)
	span := fmt.Sprintf("[%+.4f, %+.4f]", iv.Low, iv.High)
	worse := -c.Delta > g.max
	significant := iv.High < 0
	var why string
	switch {
	case worse && significant:
		why = fmt.Sprintf("B is worse than A by %.4f > %s, and the interval %s excludes 0: FAIL", -c.Delta, d, span)
	case worse:
		why = fmt.Sprintf("B is worse than A by %.4f > %s, but the interval %s includes 0 (not significant): pass", -c.Delta, d, span)
	case c.Delta > 0:
		why = fmt.Sprintf("B is better than A by %.4f: pass", c.Delta)
	case c.Delta == 0:
		why = "B scores as A: pass"
	default:
		why = fmt.Sprintf("B is worse than A by %.4f, within %s: pass", -c.Delta, d)
	}
	fmt.Fprintf(w, "gate (--max-regression %s): %s\n", d, why)
	return !(worse && significant)
}

// refused prints the verdict on runs that cannot be compared (why): the gate fails, as the
// exit code says; nothing is printed without a gate.
func (g regressionGate) refused(w io.Writer, why string) {
	if g.set {
		fmt.Fprintf(w, "gate (--max-regression %s): the runs cannot be compared (%s): FAIL\n", strconv.FormatFloat(g.max, 'g', -1, 64), why)
	}
}

// baselineGiven tells whether args set --baseline (before any "--"): then one positional
// run ID, B, follows, not two.
func baselineGiven(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name := strings.TrimLeft(a, "-")
		if len(a)-len(name) >= 1 && len(a)-len(name) <= 2 && (name == "baseline" || strings.HasPrefix(name, "baseline=")) {
			return true
		}
	}
	return false
}
