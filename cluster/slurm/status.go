package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
)

// Task is one line of squeue: an array task or the merge job.
type Task struct {
	ID     string // squeue's %i: "5_2" for an array task, "9" for a job
	JobID  string // %A, the task's own job id
	Array  string // %F, the array's job id (a plain job's own)
	Index  string // %K, the task's index; "" for a plain job
	State  string // %T: PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, ...
	Reason string // %r: why it is pending or ended; "" for None
}

// squeueFormat splits an array into its tasks (with -r), one line each; | never occurs in
// the fields asked for.
const squeueFormat = "%i|%A|%F|%K|%T|%r"

// Queue is what squeue says of the jobs ids, their array tasks one by one. A job squeue no
// longer knows (ended longer ago than the cluster's MinJobAge, or a task cancelled while
// pending) is not in it.
func Queue(ctx context.Context, ids []string) ([]Task, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	out, err := command(ctx, "squeue", "-h", "-r", "-t", "all", "-j", strings.Join(ids, ","), "-o", squeueFormat)
	if err != nil && strings.Contains(err.Error(), "Invalid job id") {
		return nil, nil // none of them is known any more
	}
	if err != nil {
		return nil, err
	}
	return parseQueue(out), nil
}

// parseQueue reads squeue's lines in squeueFormat, in its order.
func parseQueue(out string) []Task {
	var tasks []Task
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(strings.TrimSpace(line), "|")
		if len(f) != 6 {
			continue
		}
		t := Task{ID: f[0], JobID: f[1], Array: f[2], Index: f[3], State: f[4], Reason: f[5]}
		if t.Index == "N/A" {
			t.Index = ""
		}
		if t.Reason == "None" {
			t.Reason = ""
		}
		tasks = append(tasks, t)
	}
	return tasks
}

// Progress is what a shard's directory (DIR/shard-K-of-N/) says of it.
type Progress struct {
	K, N     int
	Started  bool // its manifest is there: the task began and checked the dataset
	Examples int  // the shard's examples, from its manifest
	Done     int  // complete lines in its journal: examples evaluated, at most Examples
	Complete bool // its manifest says it ended with every example
	// Lines is the journal's complete lines; more than Examples is a damaged journal (two
	// runs of the shard wrote it), which the merge refuses.
	Lines   int
	Damaged bool
}

// Shards reads the progress of each of DIR's N shards from their manifests and journals.
func Shards(dir string, n int) ([]Progress, error) {
	out := make([]Progress, n)
	for k := range out {
		p := Progress{K: k, N: n}
		sd := shard.Dir(dir, engine.Shard{K: k, N: n})
		m, err := shard.ReadManifest(sd)
		switch {
		case err == nil:
			p.Started, p.Examples, p.Complete = true, m.Examples, m.Complete
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
		done, err := lines(filepath.Join(sd, shard.JournalFile))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		p.Lines, p.Done = done, done
		if p.Started && done > p.Examples {
			p.Done, p.Damaged = p.Examples, true
		}
		out[k] = p
	}
	return out, nil
}

// lines counts the complete lines of a file: a task killed mid-write leaves a torn last
// line, which its rerun drops. A journal that is not a regular file is an error at once (a
// FIFO is not waited on): the server's watcher reads it every poll.
func lines(path string) (int, error) {
	f, err := engine.OpenRegular(path)
	if errors.Is(err, engine.ErrNotRegular) {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	n := 0
	buf := make([]byte, 64<<10)
	for {
		m, err := r.Read(buf)
		n += bytes.Count(buf[:m], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// Status is what benchy slurm status shows of DIR.
type Status struct {
	Record
	Tasks  []Task     // of every submission's array and merge job that squeue still knows
	Shards []Progress // from the journals
}

// Read gathers DIR's status: its jobs from jobs.json and squeue, its shards' progress from
// their journals.
func Read(ctx context.Context, dir string) (Status, error) {
	rec, err := ReadRecord(dir)
	if errors.Is(err, os.ErrNotExist) {
		return Status{}, fmt.Errorf("%s: %w", dir, errNoJobs)
	}
	if err != nil {
		return Status{}, err
	}
	st := Status{Record: rec}
	if st.Tasks, err = Queue(ctx, rec.ids()); err != nil {
		return st, err
	}
	st.Shards, err = Shards(dir, rec.Shards)
	return st, err
}

// ids are the job ids of every submission: arrays and merge jobs.
func (r Record) ids() []string {
	var ids []string
	for _, s := range r.Submissions {
		ids = append(ids, s.Array)
		if s.Merge != "" {
			ids = append(ids, s.Merge)
		}
	}
	return ids
}

// Cancel cancels every array and merge job submitted from DIR (scancel of a job that has
// ended is no error) and returns their ids.
func Cancel(ctx context.Context, dir string) ([]string, error) {
	rec, err := ReadRecord(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, errNoJobs)
	}
	if err != nil {
		return nil, err
	}
	ids := rec.ids()
	if len(ids) == 0 {
		return nil, nil
	}
	_, err = command(ctx, "scancel", ids...)
	return ids, err
}
