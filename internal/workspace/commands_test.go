package workspace

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestCommandFiles: the files a runtime file's commands name, which neither an upload nor
// a result file may replace: each row a runtime file and the files of its folder it names.
func TestCommandFiles(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"prog": "", "extract.py": "", "r.txt": "", "words.txt": "", "tools/run": "", "other.txt": "",
	})
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh in PATH")
	}
	for _, tc := range []struct {
		name, runtime string
		want          []string // in the folder; "sh" is sh as PATH finds it
	}{
		{"a program by its path", "bindings:\n  a:\n    command: [./prog]\n", []string{"prog"}},
		{"a script given as an argument, and a file in a flag", "bindings:\n  a:\n    command: [no-such-interpreter-13, extract.py, --rules=r.txt]\n", []string{"extract.py", "r.txt"}},
		{"words of a shell line; a bare program found in PATH", "bindings:\n  a:\n    command: [sh, -c, \"tools/run < words.txt\"]\n", []string{"sh", "tools/run", "words.txt"}},
		{"a folder, a missing file, a comment and a URL name nothing", "# other.txt\nbindings:\n  a:\n    command: [./tools, ./none]\n  b:\n    http: http://127.0.0.1:9/other.txt\n", nil},
		{"a file that does not parse: every word counts", "bindings: [other.txt\n", []string{"other.txt"}},
		{"a required program", "bindings:\n  a:\n    command: [./prog]\n    requires: {sh: dash}\n", []string{"prog", "sh"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			for _, w := range tc.want {
				if w == "sh" {
					want = append(want, sh)
				} else {
					want = append(want, filepath.Join(dir, w))
				}
			}
			got := CommandFiles([]byte(tc.runtime), dir)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}
