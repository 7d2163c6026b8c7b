package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/cluster/k8s"
	"github.com/benchy-eval/benchy/shard"
)

// runK8s is benchy k8s: `job` prints the manifests that run a benchmark's shards on
// Kubernetes (package cluster/k8s), and `wait` is what the merge Job runs before merging.
func runK8s(e *env, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "job":
			return runK8sJob(e, args[1:])
		case "wait":
			return runK8sWait(e, args[1:])
		case "-h", "-help", "--help":
			fmt.Fprint(e.stdout, k8sUsage)
			return ExitOK
		}
		fmt.Fprintf(e.stderr, "benchy k8s: unknown subcommand %q\n", args[0])
	}
	fmt.Fprint(e.stderr, k8sUsage)
	return ExitUsage
}

const k8sUsage = `Usage:
  benchy k8s job --shards N --image IMAGE --volume-claim NAME [flags] BENCHMARK
      print an Indexed Job that runs the benchmark's N shards and a Job that merges them
  benchy k8s wait --shards N DIR
      wait until every shard in DIR has completed (the merge Job's init container)

Run 'benchy k8s job -h' for its flags.
`

func runK8sJob(e *env, args []string) int {
	fs := flag.NewFlagSet("k8s job", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: benchy k8s job --shards N --image IMAGE --volume-claim NAME [flags] BENCHMARK\n\n"+
			"Print (for kubectl apply -f -) an Indexed Job whose pod K runs shard K of N of a benchmark, and a Job that\n"+
			"merges the shards into DIR/results.json once they have all completed. Paths are the pods': relative to\n"+
			"the volume's root, mounted at --mount, the containers' working directory.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var o k8s.Options
	fs.IntVar(&o.Shards, "shards", 0, "the number of shards N: the Job's completions (needed)")
	fs.StringVar(&o.Image, "image", "", "an image with benchy on its PATH (needed)")
	fs.StringVar(&o.VolumeClaim, "volume-claim", "", "the PersistentVolumeClaim holding the workspace and DIR, mounted in every pod; ReadWriteMany when pods run on several nodes (needed)")
	fs.StringVar(&o.Mount, "mount", k8s.DefaultMount, "where the claim is mounted, the containers' working directory")
	fs.StringVar(&o.OutDir, "out-dir", "", "DIR, where the shards write (default shards/NAME)")
	fs.StringVar(&o.Name, "name", "", "the shard Job's name, a DNS-1123 label; the merge Job's is NAME-merge (default benchy-<benchmark file's name>)")
	fs.StringVar(&o.Namespace, "namespace", "", "the Jobs' namespace (default: kubectl's)")
	fs.IntVar(&o.Parallelism, "parallelism", 0, "how many shards run at once (default N)")
	fs.IntVar(&o.BackoffLimitPerIndex, "backoff-limit-per-index", 2, "how often a failed shard is tried again before its index fails")
	fs.StringVar(&o.Runtime, "runtime", "", "the runtime file (default: found as benchy run finds it)")
	fs.StringVar(&o.Secret, "secret", "", "a Secret whose keys become the shards' environment (the providers' API keys)")
	pos, code, ok := parseArgs(e, fs, args, 1, "BENCHMARK")
	if !ok {
		return code
	}
	o.Benchmark = pos[0]
	r, err := k8s.Resolve(o)
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(e.stderr, "benchy k8s job: %s\n", line)
		}
		return ExitUsage
	}
	out, err := k8s.Manifests(r)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy k8s job: %v\n", err)
		return ExitFail
	}
	e.stdout.Write(out)
	return ExitOK
}

// runK8sWait is benchy k8s wait, the merge Job's init container (k8s.Wait): it prints a
// line whenever the shards still to complete change, and exits 0 once none is left, 1 when
// a manifest cannot be read or --timeout passes.
func runK8sWait(e *env, args []string) int {
	fs := flag.NewFlagSet("k8s wait", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: benchy k8s wait --shards N DIR\n\nWait until every shard of N in DIR has completed (the merge Job's init container).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	n := fs.Int("shards", 0, "the number of shards N (needed)")
	poll := fs.Duration("poll", 10*time.Second, "how often to look at the shards' manifests")
	timeout := fs.Duration("timeout", 0, "give up after this long (exit 1); 0 waits as long as the pod lives")
	pos, code, ok := parseArgs(e, fs, args, 1, "DIR")
	if !ok {
		return code
	}
	if *n < 1 || *poll <= 0 || *timeout < 0 {
		fmt.Fprintf(e.stderr, "benchy k8s wait: --shards %d, --poll %s, --timeout %s: want N ≥ 1, a poll above 0 and a timeout of 0 or more\n", *n, *poll, *timeout)
		return ExitUsage
	}
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	err := k8s.Wait(ctx, pos[0], *n, *poll, func(pending []shard.Missing) {
		if len(pending) == 0 {
			fmt.Fprintf(e.stderr, "benchy k8s wait: all %d shards complete\n", *n)
			return
		}
		var parts []string
		for _, m := range pending {
			parts = append(parts, m.Shard.String()+" "+m.Why)
		}
		waiting := strings.Join(parts, ", ")
		if len(pending) > shard.MaxRuns { // 10^5 shards pending: runs of them, not one line of 10^5
			waiting = shard.Summary(pending)
		}
		fmt.Fprintf(e.stderr, "benchy k8s wait: %d of %d shards complete; waiting for %s\n", *n-len(pending), *n, waiting)
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy k8s wait: %v\n", err)
		return ExitFail
	}
	return ExitOK
}
