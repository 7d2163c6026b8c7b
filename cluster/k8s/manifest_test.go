package k8s_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/benchy-eval/benchy/cluster/k8s"
)

// decode reads the documents Manifests prints as kubectl would (sigs.k8s.io/yaml, YAML 1.1
// scalars, into JSON) into k8s.io/api's Jobs, refusing a field those types do not have.
func decode(t *testing.T, out []byte) []batchv1.Job {
	t.Helper()
	var jobs []batchv1.Job
	for _, doc := range strings.Split(string(out), "\n---\n") {
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%v in\n%s", err, doc)
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.DisallowUnknownFields()
		var j batchv1.Job
		if err := dec.Decode(&j); err != nil {
			t.Fatalf("%v in\n%s", err, doc)
		}
		jobs = append(jobs, j)
	}
	if len(jobs) != 2 {
		t.Fatalf("%d documents, want 2 (the shards, the merge):\n%s", len(jobs), out)
	}
	return jobs
}

func manifests(t *testing.T, o k8s.Options) []batchv1.Job {
	t.Helper()
	r, err := k8s.Resolve(o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := k8s.Manifests(r)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, out)
}

func TestManifestsDecode(t *testing.T) {
	jobs := manifests(t, k8s.Options{
		Benchmark: "/data/bench/ocr.yaml", Shards: 4, Parallelism: 3, Image: "registry.example/benchy:1",
		VolumeClaim: "bench-work", Mount: "/data", Namespace: "eval", BackoffLimitPerIndex: 2,
		Runtime: "bench/benchy.runtime.yaml", Secret: "provider-keys",
	})
	shards, merge := jobs[0], jobs[1]
	if shards.APIVersion != "batch/v1" || shards.Kind != "Job" || shards.Name != "benchy-ocr" || shards.Namespace != "eval" {
		t.Errorf("shard Job %s %s %s/%s", shards.APIVersion, shards.Kind, shards.Namespace, shards.Name)
	}
	s := shards.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed", s.CompletionMode)
	}
	if s.Completions == nil || *s.Completions != 4 || s.Parallelism == nil || *s.Parallelism != 3 {
		t.Errorf("completions %v, parallelism %v; want 4, 3", s.Completions, s.Parallelism)
	}
	if s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 2 {
		t.Errorf("backoffLimitPerIndex %v, want 2", s.BackoffLimitPerIndex)
	}
	if s.PodFailurePolicy == nil || len(s.PodFailurePolicy.Rules) != 2 ||
		s.PodFailurePolicy.Rules[0].Action != batchv1.PodFailurePolicyActionFailIndex ||
		s.PodFailurePolicy.Rules[0].OnExitCodes.Values[0] != k8s.FailIndexCode {
		t.Errorf("podFailurePolicy %+v, want FailIndex on exit code %d", s.PodFailurePolicy, k8s.FailIndexCode)
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never (backoffLimitPerIndex needs it)", pod.RestartPolicy)
	}
	c := only(t, pod.Containers)
	want := []string{"benchy", "run", "bench/ocr.yaml", "--shard", "auto", "--shards", "4", "--out-dir", "shards/benchy-ocr", "--runtime", "bench/benchy.runtime.yaml"}
	if !equal(c.Command, want) {
		t.Errorf("shard command %q, want %q", c.Command, want)
	}
	if c.Image != "registry.example/benchy:1" || c.WorkingDir != "/data" {
		t.Errorf("image %q, workingDir %q", c.Image, c.WorkingDir)
	}
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef == nil || c.EnvFrom[0].SecretRef.Name != "provider-keys" {
		t.Errorf("envFrom %+v, want the Secret provider-keys", c.EnvFrom)
	}
	mounted(t, "shard", pod, c, "bench-work", "/data")

	if merge.Name != "benchy-ocr-merge" || merge.Namespace != "eval" || merge.Spec.CompletionMode != nil {
		t.Errorf("merge Job %s/%s, completionMode %v", merge.Namespace, merge.Name, merge.Spec.CompletionMode)
	}
	mp := merge.Spec.Template.Spec
	if mp.RestartPolicy != corev1.RestartPolicyNever || merge.Spec.Completions == nil || *merge.Spec.Completions != 1 {
		t.Errorf("merge restartPolicy %q, completions %v", mp.RestartPolicy, merge.Spec.Completions)
	}
	w, m := only(t, mp.InitContainers), only(t, mp.Containers)
	if want := []string{"benchy", "k8s", "wait", "--shards", "4", "shards/benchy-ocr"}; !equal(w.Command, want) {
		t.Errorf("wait command %q, want %q", w.Command, want)
	}
	if want := []string{"benchy", "merge", "shards/benchy-ocr", "-o", "shards/benchy-ocr/results.json", "--benchmark", "bench/ocr.yaml", "--runtime", "bench/benchy.runtime.yaml"}; !equal(m.Command, want) {
		t.Errorf("merge command %q, want %q", m.Command, want)
	}
	mounted(t, "wait", mp, w, "bench-work", "/data")
	mounted(t, "merge", mp, m, "bench-work", "/data")
	if len(m.EnvFrom)+len(w.EnvFrom) != 0 {
		t.Errorf("the merge Job has the Secret: it calls no AI-system")
	}
	for _, j := range jobs {
		if j.Labels["app.kubernetes.io/instance"] != "benchy-ocr" || j.Spec.Template.Labels["app.kubernetes.io/instance"] != "benchy-ocr" {
			t.Errorf("%s: labels %v, pod labels %v", j.Name, j.Labels, j.Spec.Template.Labels)
		}
	}
}

// mounted checks that c mounts the pod's one volume, the claim, at mount, its working directory.
func mounted(t *testing.T, what string, pod corev1.PodSpec, c corev1.Container, claim, mount string) {
	t.Helper()
	v := only(t, pod.Volumes)
	if v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != claim {
		t.Errorf("%s: volume %+v, want the claim %s", what, v, claim)
	}
	vm := only(t, c.VolumeMounts)
	if vm.Name != v.Name || vm.MountPath != mount || c.WorkingDir != mount {
		t.Errorf("%s: mount %+v, workingDir %q; want %s at %s", what, vm, c.WorkingDir, v.Name, mount)
	}
}

func only[T any](t *testing.T, s []T) T {
	t.Helper()
	if len(s) != 1 {
		t.Fatalf("%d items, want 1: %+v", len(s), s)
	}
	return s[0]
}

func equal(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestManifestsDefaults: --parallelism and --out-dir default from N and the name, the name
// from the file, the mount is /work, and backoffLimitPerIndex 0 (no retries) is printed.
func TestManifestsDefaults(t *testing.T) {
	jobs := manifests(t, k8s.Options{Benchmark: "Bench Marks/OCR_v2.yaml", Shards: 5, Image: "b", VolumeClaim: "w"})
	s := jobs[0].Spec
	if *s.Parallelism != 5 || s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 0 {
		t.Errorf("parallelism %d, backoffLimitPerIndex %v; want 5, 0", *s.Parallelism, s.BackoffLimitPerIndex)
	}
	c := s.Template.Spec.Containers[0]
	want := []string{"benchy", "run", "Bench Marks/OCR_v2.yaml", "--shard", "auto", "--shards", "5", "--out-dir", "shards/benchy-ocr-v2"}
	if jobs[0].Name != "benchy-ocr-v2" || !equal(c.Command, want) || c.WorkingDir != "/work" || jobs[0].Namespace != "" {
		t.Errorf("name %q, namespace %q, command %q, workingDir %q", jobs[0].Name, jobs[0].Namespace, c.Command, c.WorkingDir)
	}
}

// TestManifestsQuoted: names and paths that a YAML 1.1 reader takes for bools, numbers or
// merge keys unless quoted come back as the strings they are.
func TestManifestsQuoted(t *testing.T) {
	for _, s := range []string{"yes", "on", "n", "0123", "012", "1e3", "0x1f", "null", "1_000", ".inf", "012:30", "<<", "~"} {
		o := k8s.Options{Benchmark: s, Shards: 1, Image: s, VolumeClaim: "w", OutDir: s + "/x", Runtime: s}
		if label := !strings.ContainsAny(s, "_.:<~"); label {
			o.Name, o.Namespace, o.VolumeClaim = s, s, s
		}
		jobs := manifests(t, o)
		c := jobs[0].Spec.Template.Spec.Containers[0]
		want := []string{"benchy", "run", s, "--shard", "auto", "--shards", "1", "--out-dir", s + "/x", "--runtime", s}
		if jobs[0].Namespace != o.Namespace || c.Image != s || !equal(c.Command, want) ||
			jobs[0].Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != o.VolumeClaim ||
			o.Name != "" && jobs[0].Name != s {
			t.Errorf("%q: name %q, namespace %q, image %q, command %q", s, jobs[0].Name, jobs[0].Namespace, c.Image, c.Command)
		}
	}
}
