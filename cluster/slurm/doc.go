// Package slurm runs a sharded benchy run on a Slurm cluster (issue 17): an array job whose
// task K runs `benchy run BENCH --shard K/N --out-dir DIR`, and a merge job that depends on
// it (afterok, killed when that can never hold) and runs `benchy merge DIR`. It is what
// `benchy slurm submit|status|cancel` (internal/cli/slurm.go) and the server's cluster
// executor call; they are flags and printing over it.
//
// The job scripts are written into DIR/slurm/ (array.sh, merge.sh), with every option as an
// #SBATCH line and every path quoted, so that a user can read them and resubmit them with
// plain sbatch; the tasks' output goes to DIR/slurm/%A_%a.out and the ids of every
// submission to DIR/slurm/jobs.json, which status and cancel read. Slurm is driven only
// through its commands (sbatch, squeue, scancel), each run with a bounded time and the
// process's environment, so SLURM_CONF chooses the cluster as it does for a user.
//
// Which shards are done comes from the shard journals (DIR/shard-K-of-N/), not from Slurm:
// a task cancelled while pending leaves no trace in squeue, and ended jobs leave the queue
// after MinJobAge.
package slurm
