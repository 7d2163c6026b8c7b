// Package k8s writes the Kubernetes manifests that run a benchmark's shards (issue 17):
// an Indexed Job whose pod K runs `benchy run BENCH --shard auto --shards N --out-dir DIR`
// (Kubernetes sets JOB_COMPLETION_INDEX=K in each pod of an Indexed Job, which --shard auto
// reads), and a Job that merges the shards with `benchy merge` once they are all done.
//
// Benchy runs on Kubernetes' own Job controller, not a scheduler of its own: the shard rule,
// the journals and the merge are the same as on one machine or on Slurm, so the manifests
// only say where the workspace is (a PersistentVolumeClaim mounted in every pod, the working
// directory) and which command each pod runs. Kubernetes has no dependencies between Jobs,
// so the merge Job's init container, `benchy k8s wait`, waits on the shared volume until
// every shard has completed; both Jobs are applied together.
//
// The manifests are built from plain structs and written with goccy/go-yaml, every string
// double-quoted, so that no YAML 1.1 reader (kubectl's) takes a name like `yes` or `0123`
// for a bool or a number. The package imports nothing of Kubernetes: its tests decode the
// output into k8s.io/api's batch/v1 types, which keeps that module a test dependency.
package k8s
