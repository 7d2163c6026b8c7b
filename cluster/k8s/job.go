package k8s

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/goccy/go-yaml"
)

// Options are what `benchy k8s job` takes. Paths are the pods': relative to the volume's
// root, which is mounted at Mount and is every container's working directory, so that the
// same relative paths work in a pod and in a copy of the workspace on one machine.
type Options struct {
	Benchmark            string // the benchmark file
	Shards               int    // N: the Job's completions, one pod per shard
	Parallelism          int    // shards running at once; 0 is Shards
	Image                string // an image with benchy on its PATH
	VolumeClaim          string // the PersistentVolumeClaim holding the workspace and OutDir
	Mount                string // where the claim is mounted; "" is DefaultMount
	OutDir               string // the shards' DIR; "" is shards/NAME
	Name                 string // the shard Job's name (the merge Job's is NAME-merge); "" is benchy-<benchmark file's name>
	Namespace            string // "" leaves it to kubectl's context
	BackoffLimitPerIndex int    // retries of one shard before Kubernetes marks its index failed
	Runtime              string // the runtime file; "" lets benchy run find it as on one machine
	Secret               string // a Secret whose keys become the containers' environment (API keys); "" is none
}

// DefaultMount is where the volume claim is mounted when Options.Mount is empty.
const DefaultMount = "/work"

// maxName is the longest Job name: a Job's name is a label value of its pods (63
// characters at most), and the merge Job's adds "-merge".
const maxName = 63 - len("-merge")

// Resolved is the Options with every default filled in and every path made relative to the
// volume's root, as the manifests use them.
type Resolved struct {
	Options
	Results string // the merged result document, OutDir/results.json
}

// Resolve checks o and fills its defaults. Its error names every problem, one a line.
func Resolve(o Options) (Resolved, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if o.Mount == "" {
		o.Mount = DefaultMount
	}
	if !path.IsAbs(o.Mount) {
		bad("--mount %q: not an absolute path", o.Mount)
	}
	o.Mount = path.Clean(o.Mount)
	if o.Shards < 1 {
		bad("--shards %d: needs 1 or more", o.Shards)
	}
	if o.Shards > engine.MaxShards {
		bad("--shards %d: at most %d, the most completions an Indexed Job with a backoff limit per index takes", o.Shards, engine.MaxShards)
	}
	if o.Parallelism < 0 {
		bad("--parallelism %d: needs 0 (as many as --shards) or more", o.Parallelism)
	}
	if o.Parallelism == 0 || o.Parallelism > o.Shards {
		o.Parallelism = max(o.Shards, 1)
	}
	if o.BackoffLimitPerIndex < 0 {
		bad("--backoff-limit-per-index %d: needs 0 or more", o.BackoffLimitPerIndex)
	}
	switch {
	case o.Image == "":
		bad("--image: needed (an image with benchy on its PATH)")
	case strings.ContainsAny(o.Image, " \t\r\n"):
		bad("--image %q: has a space", o.Image)
	}
	if o.VolumeClaim == "" {
		bad("--volume-claim: needed (the PersistentVolumeClaim holding the workspace)")
	} else if why := subdomain(o.VolumeClaim); why != "" {
		bad("--volume-claim %q: %s", o.VolumeClaim, why)
	}
	if o.Secret != "" {
		if why := subdomain(o.Secret); why != "" {
			bad("--secret %q: %s", o.Secret, why)
		}
	}
	if o.Namespace != "" {
		if why := label(o.Namespace, 63); why != "" {
			bad("--namespace %q: %s", o.Namespace, why)
		}
	}
	if o.Name == "" {
		o.Name = nameOf(o.Benchmark)
	} else if why := label(o.Name, maxName); why != "" {
		bad("--name %q: %s", o.Name, why)
	}
	var err error
	if o.Benchmark == "" {
		bad("the benchmark: needed")
	} else if o.Benchmark, err = inPod(o.Benchmark, o.Mount); err != nil {
		bad("the benchmark %v", err)
	}
	if o.OutDir == "" {
		o.OutDir = "shards/" + o.Name
	} else if o.OutDir, err = inPod(o.OutDir, o.Mount); err != nil {
		bad("--out-dir %v", err)
	}
	if o.Runtime != "" {
		if o.Runtime, err = inPod(o.Runtime, o.Mount); err != nil {
			bad("--runtime %v", err)
		}
	}
	if len(errs) > 0 {
		return Resolved{}, errors.Join(errs...)
	}
	return Resolved{Options: o, Results: path.Join(o.OutDir, "results.json")}, nil
}

// inPod is p relative to the volume's root: a relative path as it is (cleaned), an absolute
// one under the mount made relative. A path that leaves the volume is refused: another pod
// would not see it.
func inPod(p, mount string) (string, error) {
	p = path.Clean(p)
	if path.IsAbs(p) {
		rel, ok := strings.CutPrefix(p, strings.TrimSuffix(mount, "/")+"/")
		if !ok {
			return "", fmt.Errorf("%q: not under the mount %s (paths are the pods', relative to the volume)", p, mount)
		}
		p = rel
	}
	if p == "" || p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("%q: not inside the volume (paths are relative to its root)", p)
	}
	if strings.HasPrefix(p, "-") {
		p = "./" + p // not a flag, nor standard input
	}
	return p, nil
}

// Shards is the command every pod of the Indexed Job runs; Kubernetes sets
// JOB_COMPLETION_INDEX in each, which --shard auto takes as K.
func (r Resolved) Shards() []string {
	cmd := []string{"benchy", "run", r.Benchmark, "--shard", "auto", "--shards", strconv.Itoa(r.Options.Shards), "--out-dir", r.OutDir}
	if r.Runtime != "" {
		cmd = append(cmd, "--runtime", r.Runtime)
	}
	return cmd
}

// Wait is the merge Job's init container's command: it returns once every shard in OutDir
// has completed.
func (r Resolved) Wait() []string {
	return []string{"benchy", "k8s", "wait", "--shards", strconv.Itoa(r.Options.Shards), r.OutDir}
}

// Merge is the merge Job's command. It is given the benchmark and runtime file the shards
// were: it holds every shard to them, and takes no path from a shard's manifest.
func (r Resolved) Merge() []string {
	cmd := []string{"benchy", "merge", r.OutDir, "-o", r.Results, "--benchmark", r.Benchmark}
	if r.Runtime != "" {
		cmd = append(cmd, "--runtime", r.Runtime)
	}
	return cmd
}

// Manifests is the two YAML documents `benchy k8s job` prints: the Indexed Job of the shards
// and the Job that merges them, for `kubectl apply -f -`.
func Manifests(r Resolved) ([]byte, error) {
	var out bytes.Buffer
	for i, j := range []job{r.shardJob(), r.mergeJob()} {
		b, err := yaml.MarshalWithOptions(j, yaml.IndentSequence(true))
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out.WriteString("---\n")
		}
		out.WriteString(comments[i])
		out.Write(b)
	}
	return out.Bytes(), nil
}

var comments = []string{
	"# The shards: pod K runs shard K of N (Kubernetes sets JOB_COMPLETION_INDEX=K).\n",
	"# The merge: its init container waits on the volume until every shard has completed.\n",
}

// FailIndexCode is the exit code on which a shard's index fails at once, without retries:
// benchy's usage error, which a retry would repeat.
const FailIndexCode = 2

func (r Resolved) shardJob() job {
	perIndex := r.BackoffLimitPerIndex
	j := r.job(r.Name, "shard", r.Options.Shards, r.Parallelism, container{Name: "shard", Command: strs(r.Shards())})
	j.Spec.CompletionMode = "Indexed"
	j.Spec.BackoffLimitPerIndex = &perIndex
	j.Spec.PodFailurePolicy = &podFailurePolicy{Rules: []podFailureRule{
		{Action: "FailIndex", OnExitCodes: &onExitCodes{ContainerName: "shard", Operator: "In", Values: []int{FailIndexCode}}},
		// A pod evicted or preempted is tried again without counting as a failure.
		{Action: "Ignore", OnPodConditions: []onPodCondition{{Type: "DisruptionTarget", Status: "True"}}},
	}}
	return j
}

func (r Resolved) mergeJob() job {
	limit := 2
	m := r
	m.Secret = "" // the merge calls no AI-system
	j := m.job(r.Name+"-merge", "merge", 1, 1, container{Name: "merge", Command: strs(r.Merge())})
	j.Spec.BackoffLimit = &limit
	j.Spec.Template.Spec.InitContainers = []container{m.container(container{Name: "wait", Command: strs(r.Wait())})}
	return j
}

// job is a Job of one container with the volume, labelled so that kubectl get -l finds
// both Jobs of a run and their pods.
func (r Resolved) job(name, component string, completions, parallelism int, c container) job {
	l := labels{{"app.kubernetes.io/name", "benchy"}, {"app.kubernetes.io/instance", r.Name}, {"app.kubernetes.io/component", component}}
	return job{
		APIVersion: "batch/v1",
		Kind:       "Job",
		Metadata:   metadata{Name: str(name), Namespace: str(r.Namespace), Labels: l},
		Spec: jobSpec{
			Completions: completions,
			Parallelism: parallelism,
			Template: podTemplate{
				Metadata: metadata{Labels: l},
				Spec: podSpec{
					RestartPolicy: "Never",
					Containers:    []container{r.container(c)},
					Volumes:       []volume{{Name: "workspace", PersistentVolumeClaim: claimRef{ClaimName: str(r.VolumeClaim)}}},
				},
			},
		},
	}
}

func (r Resolved) container(c container) container {
	c.Image = str(r.Image)
	c.WorkingDir = str(r.Mount)
	c.VolumeMounts = []volumeMount{{Name: "workspace", MountPath: str(r.Mount)}}
	if r.Secret != "" {
		c.EnvFrom = []envFrom{{SecretRef: secretRef{Name: str(r.Secret)}}}
	}
	return c
}

// strs is a command's words, each written so that Kubernetes does not expand it.
func strs(ss []string) []expanded {
	out := make([]expanded, len(ss))
	for i, s := range ss {
		out[i] = expanded(s)
	}
	return out
}
