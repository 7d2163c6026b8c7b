package runs

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// Runs on an executor (issue 17): the start form's "Run on" choice, shown when the
// benchmark's runtime file defines executors, and what the followed run says of its
// shards while the cluster evaluates them.

// renderExecutor is the form's "Run on: this machine | NAME" and the shards a cluster run
// is split into; nothing when the runtime file defines no executor.
func (p *Page) renderExecutor() app.UI {
	xs := p.bindings.Value.Executors
	if len(xs) == 0 {
		return app.Span().ID("run-on").Hidden(true)
	}
	options := []app.UI{app.Option().Value("").Selected(p.executor == "").Text("this machine")}
	for _, x := range xs {
		options = append(options, app.Option().Value(x.Name).Selected(p.executor == x.Name).Text(x.Name+" ("+x.Kind+")"))
	}
	return app.Span().ID("run-on").Class("row").Body(
		app.Label().For("executor").Text("Run on"),
		app.Select().ID("executor").Title("Where the run is evaluated: this machine, or a cluster of the runtime file's executors, in shards merged into one run").
			OnChange(p.ValueTo(&p.executor)).Body(options...),
		app.If(p.executor != "", func() app.UI {
			return app.Span().Body(
				app.Label().For("shards").Text("Shards"),
				app.Input().ID("shards").Type("number").Min(1).Max(1000).Placeholder("default").Value(p.shards).
					Title("How many array tasks the run is split into; empty for the executor's default").OnInput(p.ValueTo(&p.shards)),
			)
		}),
	)
}

// clusterText is what the followed run says of its shards: "on cluster NAME: 3 of 4
// shards running, 1,234 of 5,000 examples".
func clusterText(c *api.Cluster) string {
	var parts []string
	if c.Running > 0 || c.Complete < c.Shards {
		parts = append(parts, ui.Int(c.Running)+" of "+ui.Int(c.Shards)+" shards running")
	}
	if c.Complete > 0 {
		parts = append(parts, ui.Int(c.Complete)+" complete")
	}
	if c.Pending > 0 && c.Running > 0 {
		parts = append(parts, ui.Int(c.Pending)+" pending")
	}
	if c.Complete == c.Shards {
		parts = []string{"all " + ui.Int(c.Shards) + " shards complete, merging"}
	}
	return "on cluster " + c.Executor + ": " + strings.Join(parts, ", ") + ", " + ui.Int(c.Done) + " of " + ui.Int(c.Total) + " examples"
}

// renderCluster shows where the followed run runs while the cluster evaluates it.
func renderCluster(r api.Run) app.UI {
	c := r.Cluster
	if c == nil || !api.Active(r.Status) {
		return app.Div().ID("run-cluster").Hidden(true)
	}
	job := "job " + c.JobID
	if c.Kind == "slurm" {
		job = "Slurm job " + c.JobID
	}
	return app.Div().ID("run-cluster").Class("notice").Role("status").DataSet("job", c.JobID).
		DataSet("done", strconv.Itoa(c.Done)).Body(
		app.Span().ID("run-cluster-text").Text(clusterText(c)),
		app.Text(" · "),
		app.Span().ID("run-cluster-job").Class("mono").Title("the array job; its tasks are "+c.JobID+"_K").Text(job),
	)
}

// hasExecutor reports whether the runtime file (still) defines executor name.
func hasExecutor(xs []api.Executor, name string) bool {
	for _, x := range xs {
		if x.Name == name {
			return true
		}
	}
	return false
}
