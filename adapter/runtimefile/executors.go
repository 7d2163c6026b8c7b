package runtimefile

import (
	"fmt"
	"strings"

	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// The runtime file's executors mapping (issue 17): where else than this machine the server
// may run a benchmark. A slurm executor submits the run as an array job of N shards, each
// `benchy run --shard K/N`, and merges their journals into the store when the array ended.
// Kubernetes has no executor: its Jobs are printed (benchy k8s job) and applied by the user.

// Executor is one executor as the file gives it, its defaults written out.
type Executor struct {
	Name       string
	Kind       string   // ExecutorSlurm, the only kind for now
	Partition  string   // sbatch --partition, or "": the cluster's default
	Time       string   // sbatch --time, or "": the partition's
	SbatchArgs []string // more sbatch options, one argument each
	Shards     int      // N when a run asks for none; DefaultShards when the file gives none
	OutDir     string   // where the shards' folders go, as written; "": under the workspace's .benchy/cluster/
}

// ExecutorSlurm is the kind of an executor that submits to Slurm.
const ExecutorSlurm = "slurm"

// DefaultShards is an executor's N when neither the run nor the file gives one.
const DefaultShards = 4

// MaxShards bounds shards: an array task per shard, and Slurm's default MaxArraySize is 1001.
const MaxShards = 1000

// executorKeys are an executor's keys, in the order the documentation gives them.
var executorKeys = []string{"kind", "partition", "time", "sbatch_args", "shards", "out_dir"}

var executorKinds = []string{ExecutorSlurm}

// String shows the executor's name and kind; its sbatch options may name an account.
func (x Executor) String() string { return fmt.Sprintf("executor %q (%s)", x.Name, x.Kind) }

// GoString is String, so that %#v shows no more either.
func (x Executor) GoString() string { return x.String() }

func (p *parser) executors(n *yamlnode.Node) {
	path := []string{"executors"}
	pairs, ok := p.mapping(n, path, "executors must map executor names to their settings, such as {cluster: {kind: slurm}}")
	if !ok {
		return
	}
	for _, e := range pairs {
		if e.Key == "" || e.Key == "local" {
			p.report(e.Pos(), path, "an executor's name must be a non-empty string other than local, which is this machine")
			continue
		}
		if x, ok := p.executor(e); ok {
			p.f.Executors = append(p.f.Executors, x)
		}
	}
}

// executor checks one executor, reporting every problem, and returns it when it has none.
func (p *parser) executor(e yamlnode.Pair) (Executor, bool) {
	name := e.Key
	owner := fmt.Sprintf("executor %q", name)
	path := []string{"executors", name}
	pairs, ok := p.mapping(e.Value, path, fmt.Sprintf("%s must be a mapping with kind: slurm, and optionally partition, time, sbatch_args, shards and out_dir", owner))
	if !ok {
		return Executor{}, false
	}
	x := Executor{Name: name, Shards: DefaultShards}
	before := p.count()
	hasKind, kindMisspelt := false, false
	for _, e := range pairs {
		at := append(path[:2:2], e.Key)
		switch e.Key {
		case "kind":
			hasKind = true
			x.Kind = p.choice(owner, "kind", executorKinds, "slurm (Kubernetes Jobs are printed by benchy k8s job, not run by the server)", e.Value, at)
		case "partition":
			x.Partition = p.option(owner, "partition", e.Value, at)
		case "time":
			x.Time = p.option(owner, "time", e.Value, at)
		case "sbatch_args":
			x.SbatchArgs = p.sbatchArgs(owner, e.Value, at)
		case "shards":
			if x.Shards = p.whole(owner, "shards", 1, e.Value, at); x.Shards > MaxShards {
				p.report(e.Value.Pos(), at, fmt.Sprintf("%s: shards must be at most %d", owner, MaxShards))
			}
		case "out_dir":
			x.OutDir = p.option(owner, "out_dir", e.Value, at)
		default:
			kindMisspelt = kindMisspelt || suggest.Closest(e.Key, executorKeys) == "kind"
			p.unknown(e, path, executorKeys, fmt.Sprintf("%s: unknown key %q; an executor has the keys %s", owner, e.Key, strings.Join(executorKeys, ", ")))
		}
	}
	if !hasKind && !kindMisspelt && !e.Value.Partial {
		p.report(e.Pos(), path, fmt.Sprintf("%s has no kind; write kind: slurm", owner))
	}
	return x, p.count() == before
}

// option checks a one-line string option.
func (p *parser) option(owner, key string, n *yamlnode.Node, path []string) string {
	if n.Kind == yamlnode.Bad {
		return ""
	}
	s, ok := scalarText(n)
	if !ok || s == "" || strings.ContainsAny(s, "\n\r\x00") {
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s must be a non-empty string on one line", owner, key))
		return ""
	}
	return s
}

// sbatchArgs checks a list of sbatch options, each one argument such as --account=lab.
func (p *parser) sbatchArgs(owner string, n *yamlnode.Node, path []string) []string {
	switch n.Kind {
	case yamlnode.Bad, yamlnode.Null:
		return nil
	case yamlnode.Seq:
	default:
		p.report(n.Pos(), path, fmt.Sprintf("%s: sbatch_args must be a list of sbatch options such as [--account=lab, --gres=gpu:1]", owner))
		return nil
	}
	var out []string
	for i, v := range n.Items {
		s, ok := scalarText(v)
		switch {
		case v.Kind == yamlnode.Bad:
		case !ok || !strings.HasPrefix(s, "-") || strings.ContainsAny(s, "\n\r\x00"):
			p.report(v.Pos(), path, fmt.Sprintf("%s: sbatch_args[%d] must be one sbatch option starting with -, such as --account=lab", owner, i))
		default:
			out = append(out, s)
		}
	}
	return out
}
