package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// wrappedSystems is twoSystems with the programs in the workspace, as the examples bind
// theirs: label runs ./label (a script calling the label adapter), slow-system runs
// [sh, slow.sh] (a script given as an argument); prog-link is a link to ./label and
// hard.jsonl a hard link of slow.sh.
func wrappedSystems(t *testing.T) string {
	t.Helper()
	dir := slowWorkspace(t, 3, 0)
	testkit.WriteFiles(t, dir, map[string]string{
		"label":               fmt.Sprintf("#!/bin/sh\nexec %q \"$@\"\n", labelAdapter.build(t)),
		"slow.sh":             fmt.Sprintf("exec %q -log calls.log \"$@\"\n", slowBin(t)),
		"benchy.runtime.yaml": "bindings:\n  label:\n    command: [./label]\n  slow-system:\n    command: [sh, slow.sh]\n",
	})
	if err := os.Chmod(filepath.Join(dir, "label"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("label", filepath.Join(dir, "prog-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "slow.sh"), filepath.Join(dir, "hard.jsonl")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunOutputNeverABindingsFile: -o (the document or its stream, for each name {system}
// makes) is refused, before any AI-system call, when it is, by any path, a file a binding's
// command of the runtime file runs or reads: its program, a script given as its argument,
// a link or a hard link to either. `-o '{system}'` replaced ./label with a JSON document.
// `benchy runs export -o` keeps to the same rule.
func TestRunOutputNeverABindingsFile(t *testing.T) {
	dir := wrappedSystems(t)
	in := func(p string) string { return filepath.Join(dir, p) }
	before := map[string]string{}
	for _, f := range []string{"label", "slow.sh"} {
		b, _ := os.ReadFile(in(f))
		before[f] = string(b)
	}
	for _, c := range []struct {
		name string
		args []string
		says string
	}{
		{"several systems, -o {system}: the first is the program ./label", []string{"--system", "label", "--system", "slow-system", "-o", "{system}"}, "-o label would overwrite label, a file a binding's command"},
		{"one system, -o its own program", []string{"--system", "label", "-o", "label"}, "-o label would overwrite label"},
		{"a script a command gives as its argument", []string{"--system", "label", "-o", "slow.sh"}, "would overwrite slow.sh"},
		{"a link to the program", []string{"--system", "slow-system", "-o", "prog-link"}, "(prog-link is the same file)"},
		{"the stream a hard link of the script", []string{"--system", "label", "-o", "hard.json"}, "(hard.jsonl is the same file)"},
		{"the file's own system, -o the program by its absolute path", []string{"-o", in("label")}, "would overwrite label"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := benchyIn(t, dir, append(append([]string{"run"}, c.args...), "benchmark.yaml")...)
			if code != 2 || !strings.Contains(stderr, c.says) || !strings.Contains(stderr, "runtime file benchy.runtime.yaml") {
				t.Errorf("exit %d, want 2 saying %q:\n%s", code, c.says, stderr)
			}
			for f, want := range before {
				if b, _ := os.ReadFile(in(f)); string(b) != want {
					t.Fatalf("%s was overwritten: %.80q", f, b)
				}
			}
			if n, runs := calls(dir), storedRuns(t, dir); n > 0 || len(runs) > 0 {
				t.Errorf("%d calls, %d runs stored before the refusal", n, len(runs))
			}
		})
	}
	// The programs still run: both systems, into files of their own.
	code, _, stderr := benchyIn(t, dir, "run", "--system", "label", "--system", "slow-system", "-o", "r-{system}.json", "benchmark.yaml")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	run := storedRuns(t, dir)["label"]
	if code, _, stderr := benchyIn(t, dir, "runs", "export", "-o", "label", run.ID); code != 2 || !strings.Contains(stderr, "would overwrite "+in("label")+", a file a binding's command") {
		t.Errorf("runs export -o label: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(in("label")); string(b) != before["label"] {
		t.Errorf("label was overwritten by the export")
	}
}

// TestRunUsageNamesSystemFlags: benchy run -h names the flags of issues 13 and 15 on its
// first line, with the placeholders of their values.
func TestRunUsageNamesSystemFlags(t *testing.T) {
	code, stderr, _ := runBenchy(t, "run", "-h")
	first, _, _ := strings.Cut(stderr[strings.Index(stderr, "Usage:"):], "\n")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, w := range []string{"[--system ID]...", "[--model PROVIDER/MODEL]...", "[--system-file F.yaml]...", "[--parallel-systems N]", "[--fail-under X [--fail-under-ci]]", "[--junit FILE]"} {
		if !strings.Contains(first, w) {
			t.Errorf("the usage line lacks %q: %s", w, first)
		}
	}
	for _, w := range []string{"-system ID\n", "-model PROVIDER/MODEL\n", "-system-file F.yaml\n", "-parallel-systems N\n"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("the flags do not show %q:\n%s", w, stderr)
		}
	}
}

// TestRunSystemsRuntimeProblemOnce: an invalid runtime file is every system's problem, and
// its diagnostics are said once, not once per system; each system's own problem is still
// said.
func TestRunSystemsRuntimeProblemOnce(t *testing.T) {
	dir := wrappedSystems(t)
	testkit.WriteFiles(t, dir, map[string]string{"benchy.runtime.yaml": "bindings:\n  label:\n    comand: [./label]\n"})
	code, _, stderr := benchyIn(t, dir, "run", "--system", "label", "--system", "slow-system", "--system", "other", "--model", "gpt-x", "benchmark.yaml")
	if code == 0 || strings.Count(stderr, `unknown key "comand"`) != 1 || !strings.Contains(stderr, `--model gpt-x: model "gpt-x" is not PROVIDER/MODEL`) {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}

// TestRunSystemFilePrivate: --system-file refuses, unread, a hidden file, a file in a
// hidden folder, a runtime file, the runtime file of --runtime by another name, and a link
// to any of these: .env given by mistake showed its key in the diagnostic. A scalar file
// that is not private is refused by the compiler, naming its kind, not its text.
func TestRunSystemFilePrivate(t *testing.T) {
	dir := wrappedSystems(t)
	const secret = "sk-secret-0123456789"
	testkit.WriteFiles(t, dir, map[string]string{
		".env":                "OPENAI_API_KEY=" + secret + "\n",
		".config/system.yaml": "ai-system: {type: external, id: label}\n",
		"rt.yaml":             "bindings:\n  label:\n    command: [./label]\n# " + secret + "\n",
		"keys.yaml":           "OPENAI_API_KEY=" + secret + "\n",
	})
	os.Symlink(".env", filepath.Join(dir, "env-link.yaml"))
	os.Symlink(".config", filepath.Join(dir, "cfg"))
	for _, c := range []struct {
		file, says string
		runtime    bool
	}{
		{".env", "--system-file .env is hidden or in a hidden folder (.env)", false},
		{"./.config/system.yaml", "is hidden or in a hidden folder (.config)", false},
		{"env-link.yaml", "--system-file env-link.yaml leads to a file that is hidden or in a hidden folder (.env)", false},
		{"cfg/system.yaml", "leads to a file that is hidden or in a hidden folder (.config)", false},
		{"benchy.runtime.yaml", "is a runtime file (benchy.runtime.yaml, in any case)", false},
		{"rt.yaml", "--system-file rt.yaml is the runtime file rt.yaml", true},
		{filepath.Join(dir, "data", "..", ".env"), "is hidden or in a hidden folder (.env)", false},
	} {
		t.Run(c.file, func(t *testing.T) {
			args := []string{"run", "--system-file", c.file, "--system", "label", "benchmark.yaml"}
			if c.runtime {
				args = append([]string{"run", "--runtime", "rt.yaml"}, args[1:]...)
			}
			code, _, stderr := benchyIn(t, dir, args...)
			if code != 2 || !strings.Contains(stderr, c.says) || strings.Contains(stderr, secret) {
				t.Errorf("exit %d, want 2 saying %q and no secret:\n%s", code, c.says, stderr)
			}
			if n, runs := calls(dir), storedRuns(t, dir); n > 0 || len(runs) > 0 {
				t.Errorf("%d calls, %d runs stored", n, len(runs))
			}
		})
	}
	code, _, stderr := benchyIn(t, dir, "run", "--system-file", "keys.yaml", "benchmark.yaml")
	if code != 1 || !strings.Contains(stderr, "keys.yaml:1:1: invalid_value: a system file is a mapping with the one key ai-system; found a string") ||
		strings.Contains(stderr, secret) {
		t.Errorf("a scalar system file: exit %d\n%s", code, stderr)
	}
	// A system file in the folder the user works in is read, even when that folder is hidden.
	hidden := filepath.Join(dir, ".work")
	testkit.WriteFiles(t, hidden, map[string]string{"system.yaml": "ai-system: {type: external, id: nothing-binds}\n"})
	code, _, stderr = benchyIn(t, hidden, "run", "--system-file", "system.yaml", filepath.Join(dir, "benchmark.yaml"))
	if code != 1 || !strings.Contains(stderr, `"nothing-binds"`) {
		t.Errorf("a system file of a hidden working folder: exit %d\n%s", code, stderr)
	}
}
