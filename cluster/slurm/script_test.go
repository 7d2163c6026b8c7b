package slurm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// awkward is a path with what a shell or sbatch's #SBATCH parser would split or eat: blanks,
// both quotes, a #, a $, a % and a glob.
const awkward = `it's a "dir" #1 $HOME 50% *`

// TestDirective: each option survives sbatch's #SBATCH parsing as one argument, as
// _get_argument in src/sbatch/opt.c reads it (a backslash keeps the next character; quotes
// keep blanks; # starts a comment). TestSubmitQuoting checks the same against sbatch.
func TestDirective(t *testing.T) {
	for _, o := range []string{"--time=1:00", "--chdir=/a b", `--comment=it's "x" #1`, `--x=a\b`, "--x=\ttab"} {
		if got := readDirective(directive(o)); got != o {
			t.Errorf("%q: written %q, read back %q", o, directive(o), got)
		}
	}
}

// readDirective is sbatch's reading of one #SBATCH argument (_get_argument): the blank
// test comes before the backslash's, so only quotes keep a blank.
func readDirective(s string) string {
	var b strings.Builder
	escape, quoted, q := false, false, rune(0)
	for _, r := range s {
		if !quoted && (r == ' ' || r == '\t') {
			break
		}
		switch {
		case escape:
			escape = false
		case r == '\\':
			escape = true
			continue
		case quoted:
			if r == q {
				quoted = false
				continue
			}
		case r == '"' || r == '\'':
			quoted, q = true, r
			continue
		case r == '#':
			return b.String()
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestScriptCommand: the command line of each script gives benchy its arguments exactly,
// whatever the paths hold, with N written out and K from SLURM_ARRAY_TASK_ID.
func TestScriptCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), awkward)
	argv := filepath.Join(dir, "bin dir", "argv's")
	if err := os.MkdirAll(filepath.Dir(argv), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(argv, []byte("#!/bin/sh\nprintf '[%s]\\n' \"$@\"\n"), 0o755)
	j := Job{Benchy: argv, Bench: filepath.Join(dir, "b.yaml"), Shards: 4, OutDir: filepath.Join(dir, "out"), WorkDir: dir,
		Runtime: filepath.Join(dir, "rt $x.yaml"), IntoStore: filepath.Join(dir, "ws"), Limit: 7}
	cases := []struct {
		name string
		text func() (string, error)
		want []string
	}{
		{"array", j.ArrayScriptText, []string{"run", j.Bench, "--shard", "2/4", "--out-dir", j.OutDir, "--runtime", j.Runtime, "--limit", "7"}},
		{"merge", j.MergeScriptText, []string{"merge", j.OutDir, "-o", filepath.Join(j.OutDir, "results.json"), "--benchmark", j.Bench, "--runtime", j.Runtime, "--into-store", j.IntoStore}},
	}
	for _, c := range cases {
		text, err := c.text()
		if err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(dir, c.name+".sh")
		os.WriteFile(script, []byte(text), 0o755)
		cmd := exec.Command("/bin/sh", script)
		cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", c.name, err, out, text)
		}
		want := "[" + strings.Join(c.want, "]\n[") + "]\n"
		if string(out) != want {
			t.Errorf("%s: arguments\n%s\nwant\n%s\nscript:\n%s", c.name, out, want, text)
		}
	}
}

// TestCheck: what cannot be written as a job is refused before anything is submitted.
func TestCheck(t *testing.T) {
	ok := Job{Benchy: "/bin/benchy", Bench: "/b.yaml", Shards: 2, OutDir: "/out", WorkDir: "/"}
	cases := []struct {
		name string
		edit func(*Job)
		want string // "" for no error
	}{
		{"plain", func(*Job) {}, ""},
		{"no shards", func(j *Job) { j.Shards = 0 }, "at least 1"},
		{"relative DIR", func(j *Job) { j.OutDir = "out" }, "absolute"},
		{"backslash in DIR", func(j *Job) { j.OutDir = `/a\b` }, "backslash"},
		{"line break in an sbatch arg", func(j *Job) { j.SbatchArgs = []string{"--comment=a\nb"} }, "line break"},
		{"line break in the working directory", func(j *Job) { j.WorkDir = "/a\nb" }, "line break"},
		// The reviewer's repro: a command after the line break ran in the job.
		{"line break in DIR", func(j *Job) { j.OutDir = "/inj\ntouch /tmp/PWNED7 #" }, "line break"},
		{"CR in DIR", func(j *Job) { j.OutDir = "/inj\rx" }, "line break"},
		{"line break in BENCH", func(j *Job) { j.Bench = "/b\nid.yaml" }, "line break"},
		{"NUL in the runtime file", func(j *Job) { j.Runtime = "/rt\x00.yaml" }, "NUL"},
		{"line break in the store", func(j *Job) { j.IntoStore = "/ws\nid" }, "line break"},
		{"CR in benchy", func(j *Job) { j.Benchy = "/bin/benchy\r" }, "line break"},
		{"more shards than an Indexed Job takes", func(j *Job) { j.Shards = 100001 }, "at most 100000"},
		{"the most shards", func(j *Job) { j.Shards = 100000 }, ""},
	}
	for _, c := range cases {
		j := ok
		c.edit(&j)
		err := j.Check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := Tasks(4, []int{4}); err == nil {
		t.Error("Tasks(4, [4]) is no error")
	}
	if got, _ := Tasks(4, []int{1, 3}); got != "1,3" {
		t.Errorf("Tasks(4, [1 3]) = %q", got)
	}
	// Runs of shards are ranges: an --array of 10^5 numbers is more than sbatch takes.
	if got, _ := Tasks(5, []int{3, 1, 2, 2, 0, 4}); got != "0-4" {
		t.Errorf("Tasks(5, [3 1 2 2 0 4]) = %q", got)
	}
	if got, _ := Tasks(6, []int{5, 0, 2, 3}); got != "0,2-3,5" {
		t.Errorf("Tasks(6, [5 0 2 3]) = %q", got)
	}
	most := make([]int, 0, 99999)
	for k := 1; k < 100000; k++ {
		most = append(most, k)
	}
	if got, _ := Tasks(100000, most); got != "1-99999" {
		t.Errorf("Tasks(100000, 1…99999) = %.40q", got)
	}
	if _, err := Tasks(4, []int{2, 3, 4}); err == nil {
		t.Error("Tasks(4, [2 3 4]) is no error")
	}
}
