package cli

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeRunsSynopsis: the README's synopsis of each runs subcommand is the one its
// --help prints (runsCommands); the README lacked [--workspace DIR] for show, export and
// compare.
func TestReadmeRunsSynopsis(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	for _, c := range runsCommands {
		want := "benchy runs " + c.name + " " + c.args
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, "benchy runs "+c.name+" ") {
				found = true
				if got := strings.TrimSpace(l); got != want && !strings.HasPrefix(got, want+"  ") {
					t.Errorf("README: %q; --help: %q", got, want)
				}
			}
		}
		if !found {
			t.Errorf("the README has no synopsis of %q", want)
		}
	}
}

// TestReadmeCIFlags: every flag the README's CI job passes to benchy is one its command's
// --help lists, so the job a user copies runs.
func TestReadmeCIFlags(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, job, ok := strings.Cut(string(readme), "\n## CI\n")
	if ok {
		_, job, ok = strings.Cut(job, "```yaml\n")
	}
	if ok {
		job, _, ok = strings.Cut(job, "```")
	}
	if !ok {
		t.Fatal("the README has no CI section with a yaml job")
	}
	seen := 0
	for _, line := range strings.Split(job, "\n") {
		_, cmd, found := strings.Cut(line, "benchy ")
		if !found || strings.Contains(line, "install") {
			continue
		}
		words := strings.Fields(cmd)
		name := []string{words[0]}
		if words[0] == "runs" {
			name = append(name, words[1])
		}
		var help strings.Builder
		if code := Main(append(name[:len(name):len(name)], "--help"), strings.NewReader(""), &help, &help); code != 0 {
			t.Errorf("benchy %s --help: exit %d", strings.Join(name, " "), code)
			continue
		}
		seen++
		for _, w := range words {
			if strings.HasPrefix(w, "--") && !strings.Contains(help.String(), "  -"+strings.TrimPrefix(w, "--")+" ") && !strings.Contains(help.String(), "  -"+strings.TrimPrefix(w, "--")+"\n") {
				t.Errorf("the CI job passes %s to benchy %s, which --help does not list", w, strings.Join(name, " "))
			}
		}
	}
	if seen < 3 {
		t.Errorf("the CI job runs %d benchy commands, want run, report and runs compare", seen)
	}
}
