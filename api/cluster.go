package api

// ExecutorLocal is StartRun.Executor for this machine, as "" is.
const ExecutorLocal = "local"

// Executor is one executor of a runtime file as GET /api/bindings lists it: its name and
// kind, never its settings (its sbatch options may name an account).
type Executor struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "slurm"
}

// Cluster is where a run on an executor runs and how far it is: its shards' progress is
// read from their journals (Done of Total examples), their states from the scheduler.
type Cluster struct {
	Executor string `json:"executor"`
	Kind     string `json:"kind"`
	JobID    string `json:"job_id"`                 // the array job's id (Slurm: its tasks are JOBID_K)
	MergeJob string `json:"merge_job_id,omitempty"` // the job that merges once every task succeeded
	Shards   int    `json:"shards"`                 // N
	Pending  int    `json:"pending"`                // shards not started
	Running  int    `json:"running"`                // started, not complete
	Complete int    `json:"complete"`               // every example of theirs in their journal
	Done     int    `json:"done"`                   // examples in the journals
	Total    int    `json:"total"`                  // the run's examples
}
