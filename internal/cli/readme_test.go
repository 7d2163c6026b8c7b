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
