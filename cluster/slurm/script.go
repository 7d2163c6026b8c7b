package slurm

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// Job is one sharded run to submit. The paths are absolute: the tasks run on other
// machines, from WorkDir, long after the command that wrote them.
type Job struct {
	Benchy     string   // the benchy binary every task runs (its own, os.Executable)
	Bench      string   // the benchmark, YAML or IR JSON
	Shards     int      // N
	OutDir     string   // DIR, on a filesystem every node shares
	WorkDir    string   // the tasks' working directory (the submitter's)
	Runtime    string   // benchy run --runtime, or ""
	IntoStore  string   // benchy merge --into-store, or ""
	Limit      int      // benchy run --limit, or 0
	Partition  string   // sbatch --partition, or ""
	Time       string   // sbatch --time, or ""
	SbatchArgs []string // more sbatch options, one argument each, for both jobs
}

// Where a job's files go, under its DIR.
const (
	ScriptDir   = "slurm"
	ArrayScript = "array.sh"
	MergeScript = "merge.sh"
	JobsFile    = "jobs.json"
	Results     = "results.json" // what the merge job writes
)

// Dir is where j's scripts, task output and jobs.json are.
func (j Job) Dir() string { return filepath.Join(j.OutDir, ScriptDir) }

// Check says what is wrong with j, or nil.
func (j Job) Check() error {
	if j.Shards < 1 {
		return fmt.Errorf("--shards must be at least 1, not %d", j.Shards)
	}
	if j.Shards > engine.MaxShards {
		return fmt.Errorf("--shards must be at most %d (the most a Kubernetes Indexed Job takes, so that a run goes on either), not %d", engine.MaxShards, j.Shards)
	}
	for _, p := range []struct{ name, path string }{{"benchy", j.Benchy}, {"BENCH", j.Bench}, {"--out-dir", j.OutDir}, {"the working directory", j.WorkDir}} {
		if !filepath.IsAbs(p.path) {
			return fmt.Errorf("%s must be an absolute path, not %q", p.name, p.path)
		}
	}
	// The scripts' comments and #SBATCH lines hold these as they are: a line break would end
	// a comment and start a command, or end sbatch's scan of the #SBATCH lines.
	for _, p := range []struct{ name, value string }{{"benchy", j.Benchy}, {"BENCH", j.Bench}, {"--out-dir", j.OutDir},
		{"the working directory", j.WorkDir}, {"--runtime", j.Runtime}, {"--into-store", j.IntoStore}, {"the job name", j.name("")}} {
		if strings.ContainsAny(p.value, "\n\r\x00") {
			return fmt.Errorf("%s %q holds a line break or a NUL, which a job script cannot hold", p.name, p.value)
		}
	}
	// --output is a filename pattern: a backslash in it turns its %A and %a off.
	if strings.ContainsRune(j.OutDir, '\\') {
		return fmt.Errorf("--out-dir %q holds a backslash, which sbatch's --output reads as 'no %%A, no %%a'", j.OutDir)
	}
	for _, o := range j.directives() {
		if strings.ContainsAny(o, "\n\r\x00") {
			return fmt.Errorf("%q cannot be an #SBATCH line: it holds a line break", o)
		}
	}
	return nil
}

// directives are the #SBATCH options both jobs share.
func (j Job) directives() []string {
	d := []string{"--chdir=" + j.WorkDir}
	if j.Partition != "" {
		d = append(d, "--partition="+j.Partition)
	}
	if j.Time != "" {
		d = append(d, "--time="+j.Time)
	}
	return append(d, j.SbatchArgs...)
}

// ArrayScriptText is the array job's script: task K runs shard K of N. N is written out,
// never read from SLURM_ARRAY_TASK_COUNT, which is 1 for a task resubmitted alone.
func (j Job) ArrayScriptText() (string, error) {
	if err := j.Check(); err != nil {
		return "", err
	}
	run := []string{quote(j.Benchy), "run", quote(j.Bench), "--shard", `"$SLURM_ARRAY_TASK_ID"/` + fmt.Sprint(j.Shards), "--out-dir", quote(j.OutDir)}
	if j.Runtime != "" {
		run = append(run, "--runtime", quote(j.Runtime))
	}
	if j.Limit > 0 {
		run = append(run, "--limit", fmt.Sprint(j.Limit))
	}
	script := filepath.Join(j.Dir(), ArrayScript)
	head := []string{
		"# benchy slurm submit: shard K of " + fmt.Sprint(j.Shards) + " of " + j.Bench + " in array task K.",
		"# Resubmit the whole array:  sbatch " + quote(script),
		"# or only shard 2 (say):     sbatch --array=2 " + quote(script),
		"# then merge once it ended:  sbatch --dependency=afterok:ARRAYID " + quote(filepath.Join(j.Dir(), MergeScript)),
	}
	opts := append([]string{
		"--job-name=" + j.name(""),
		fmt.Sprintf("--array=0-%d", j.Shards-1),
		"--output=" + pattern(filepath.Join(j.Dir(), "%A_%a.out")),
	}, j.directives()...)
	return text(head, opts, strings.Join(run, " ")), nil
}

// MergeScriptText is the merge job's script. It is submitted with --dependency=afterok on
// the array, which only sbatch's command line can name; --kill-on-invalid-dep cancels it
// when a task failed or was cancelled, rather than leaving it pending forever.
func (j Job) MergeScriptText() (string, error) {
	if err := j.Check(); err != nil {
		return "", err
	}
	// The merge is given the benchmark and runtime file the tasks were: it holds every
	// shard to them, and takes no path from a shard's manifest.
	merge := []string{quote(j.Benchy), "merge", quote(j.OutDir), "-o", quote(filepath.Join(j.OutDir, Results)), "--benchmark", quote(j.Bench)}
	if j.Runtime != "" {
		merge = append(merge, "--runtime", quote(j.Runtime))
	}
	if j.IntoStore != "" {
		merge = append(merge, "--into-store", quote(j.IntoStore))
	}
	head := []string{
		"# benchy slurm submit: merges the " + fmt.Sprint(j.Shards) + " shards in " + j.OutDir + " once the array job succeeded.",
		"# Submit it by hand:  sbatch --dependency=afterok:ARRAYID " + quote(filepath.Join(j.Dir(), MergeScript)),
	}
	opts := append([]string{
		"--job-name=" + j.name("merge-"),
		"--output=" + pattern(filepath.Join(j.Dir(), "merge-%j.out")),
		"--kill-on-invalid-dep=yes",
	}, j.directives()...)
	return text(head, opts, strings.Join(merge, " ")), nil
}

func text(head, opts []string, command string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, h := range head {
		b.WriteString(h + "\n")
	}
	for _, o := range opts {
		b.WriteString("#SBATCH " + directive(o) + "\n")
	}
	b.WriteString("set -eu\nexec " + command + "\n")
	return b.String()
}

// name is the jobs' name in squeue: benchy-, then the benchmark's file name, or its folder's
// when the file is benchmark.yaml, in plain characters.
func (j Job) name(kind string) string {
	base := filepath.Base(j.Bench)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, filepath.Ext(base)), ".ir")
	if stem == "benchmark" {
		stem = filepath.Base(filepath.Dir(j.Bench))
	}
	clean := []rune{}
	for _, r := range stem {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			clean = append(clean, r)
		} else {
			clean = append(clean, '_')
		}
	}
	return "benchy-" + kind + string(clean)
}

// quote is s for a POSIX shell: in single quotes, each ' as '\”.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// directive is one option of an #SBATCH line as sbatch reads it back (src/sbatch/opt.c,
// _get_argument): a blank ends the argument unless it is inside quotes (a backslash does not
// keep it), a # outside quotes starts a comment, and a backslash keeps the next character,
// inside quotes too. So the option goes in double quotes, with a backslash before each " and
// \ of it.
func directive(o string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(o) + `"`
}

// pattern is path as an sbatch filename pattern whose only replacements are its own: a %
// of the path is %%. The %A and %a of the last element stay.
func pattern(path string) string {
	dir, file := filepath.Split(path)
	return strings.ReplaceAll(dir, "%", "%%") + file
}

// errNoJobs is what status and cancel say of a DIR nothing was submitted from.
var errNoJobs = errors.New("no job was submitted from it (no " + ScriptDir + "/" + JobsFile + ")")
