// Package slurmtest starts a real one-node Slurm cluster for a test and stops it afterwards,
// so that Benchy's Slurm support (issue 17: array jobs of shards, a merge job that depends on
// them, status and cancel) is tested against Debian's slurm-wlm itself rather than a fake
// sbatch.
//
// Start writes a slurm.conf and a MUNGE key into a fresh directory, starts munged, slurmctld
// and slurmd in the foreground as children of the test (no systemd, nothing under /etc or
// /var), waits until the node is idle, and registers a cleanup that cancels every job, stops
// the daemons by PID (SIGTERM, then SIGKILL after a grace) and fails the test if any of their
// processes, or of the jobs' processes, is left. The cluster listens on free ports on the
// loopback address only, so tests in several packages can each have one at the same time.
//
// Commands reach the cluster through Env (SLURM_CONF names its slurm.conf): Command, Run,
// Submit and the wait helpers use it. Where the Slurm binaries are missing the test fails
// under CI (CI set), naming .ci/run's install step, and is skipped elsewhere.
package slurmtest
