package slurm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Record is DIR/slurm/jobs.json: every submission made from DIR, oldest first, so that
// status and cancel find the jobs of a task resubmitted alone too.
type Record struct {
	Bench       string       `json:"bench"`
	Shards      int          `json:"shards"`
	Submissions []Submission `json:"submissions"`
}

// Submission is one sbatch of the array and of its merge job.
type Submission struct {
	Array     string    `json:"array_job_id"`
	Merge     string    `json:"merge_job_id,omitempty"` // "" when sbatch refused it
	Tasks     string    `json:"tasks"`                  // the --array list: "0-3", "2"
	Submitted time.Time `json:"submitted"`
}

// Tasks is the --array list of the shards in only (runs of them as ranges: sbatch takes an
// --array of a few words, not 10^5), or of all N when only is empty.
func Tasks(n int, only []int) (string, error) {
	if len(only) == 0 {
		return fmt.Sprintf("0-%d", n-1), nil
	}
	only = slices.Sorted(slices.Values(only))
	var s []string
	for i := 0; i < len(only); {
		k := only[i]
		if k < 0 || k >= n {
			return "", fmt.Errorf("shard %d is not one of 0 to %d", k, n-1)
		}
		j := i + 1 // past the run of shards that follow k, each once
		for j < len(only) && only[j] <= only[j-1]+1 {
			j++
		}
		if last := only[j-1]; last > k {
			if last >= n {
				return "", fmt.Errorf("shard %d is not one of 0 to %d", last, n-1)
			}
			s = append(s, fmt.Sprintf("%d-%d", k, last))
		} else {
			s = append(s, strconv.Itoa(k))
		}
		i = j
	}
	return strings.Join(s, ","), nil
}

// Submit writes j's scripts into DIR/slurm and submits the array (only the shards in only,
// when it is not empty) and the merge job that depends on it, and records both ids in
// jobs.json. When sbatch refuses the merge job the array still runs: the Submission has its
// id and the error says so.
func Submit(ctx context.Context, j Job, only []int) (Submission, error) {
	tasks, err := Tasks(j.Shards, only)
	if err != nil {
		return Submission{}, err
	}
	array, err := j.ArrayScriptText()
	if err != nil {
		return Submission{}, err
	}
	merge, err := j.MergeScriptText()
	if err != nil {
		return Submission{}, err
	}
	rec, err := ReadRecord(j.OutDir)
	switch {
	case os.IsNotExist(err):
		rec = Record{Bench: j.Bench, Shards: j.Shards}
	case err != nil:
		return Submission{}, err
	case rec.Shards != j.Shards:
		return Submission{}, fmt.Errorf("%s was submitted with --shards %d, not %d: a shard's examples depend on N, so its journals cannot be mixed; use another --out-dir", j.OutDir, rec.Shards, j.Shards)
	default:
		if err := rec.idle(ctx, j.OutDir); err != nil {
			return Submission{}, err
		}
	}
	if err := os.MkdirAll(j.Dir(), 0o755); err != nil {
		return Submission{}, err
	}
	arrayPath, mergePath := filepath.Join(j.Dir(), ArrayScript), filepath.Join(j.Dir(), MergeScript)
	for _, f := range []struct{ path, text string }{{arrayPath, array}, {mergePath, merge}} {
		if err := writeFile(f.path, []byte(f.text), 0o755); err != nil {
			return Submission{}, err
		}
	}
	sub := Submission{Tasks: tasks, Submitted: time.Now().UTC().Truncate(time.Second)}
	if sub.Array, err = sbatch(ctx, "--array="+tasks, arrayPath); err != nil {
		return Submission{}, err
	}
	sub.Merge, err = sbatch(ctx, "--dependency=afterok:"+sub.Array, "--kill-on-invalid-dep=yes", mergePath)
	if err != nil {
		err = fmt.Errorf("the array job %s runs, but its merge job was not submitted (%v): merge by hand once it ended: sbatch --dependency=afterok:%s %s", sub.Array, err, sub.Array, quote(mergePath))
	}
	rec.Submissions = append(rec.Submissions, sub)
	if werr := writeRecord(j.OutDir, rec); werr != nil && err == nil {
		err = werr
	}
	return sub, err
}

// idle says which array submitted from dir before has a task that has not ended, or nil:
// a second task of one shard would write its journal while the first does (the journal's
// lock refuses the second, but as a failed task, after the fact).
func (r Record) idle(ctx context.Context, dir string) error {
	var arrays []string
	for _, s := range r.Submissions {
		arrays = append(arrays, s.Array)
	}
	tasks, err := Queue(ctx, arrays)
	if err != nil {
		return fmt.Errorf("checking that the jobs submitted from %s before have ended: %w", dir, err)
	}
	for _, t := range tasks {
		if !Ended(t.State) {
			return fmt.Errorf("array %s is still running (task %s %s): wait for it to end or benchy slurm cancel %s", t.Array, t.ID, t.State, dir)
		}
	}
	return nil
}

// sbatch submits a script and returns its job id.
func sbatch(ctx context.Context, args ...string) (string, error) {
	out, err := command(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "ID;cluster" on a federation
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch: %q is not a job id", strings.TrimSpace(out))
	}
	return id, nil
}

// ReadRecord reads DIR/slurm/jobs.json; an error satisfying os.IsNotExist means nothing
// was submitted from DIR.
func ReadRecord(dir string) (Record, error) {
	data, err := os.ReadFile(filepath.Join(dir, ScriptDir, JobsFile))
	if err != nil {
		return Record{}, err
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, fmt.Errorf("%s: %v", filepath.Join(dir, ScriptDir, JobsFile), err)
	}
	return rec, nil
}

func writeRecord(dir string, rec Record) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, ScriptDir, JobsFile), append(data, '\n'), 0o644)
}

// writeFile replaces path whole (a temporary file renamed over it): a reader on another
// node sees the old file or the new one, never half of one.
func writeFile(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
