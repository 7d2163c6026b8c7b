package cli

import "testing"

// TestShellArg: the resume hint's arguments read back by a shell as they were given.
func TestShellArg(t *testing.T) {
	for in, want := range map[string]string{
		"bench/a.yaml":     "bench/a.yaml",
		"":                 "''",
		"my bench.yaml":    "'my bench.yaml'",
		"it's.yaml":        `'it'\''s.yaml'`,
		"$(rm -rf ~).yaml": "'$(rm -rf ~).yaml'",
		"--max-cost=0.5":   "--max-cost=0.5",
	} {
		if got := shellArg(in); got != want {
			t.Errorf("shellArg(%q) = %s, want %s", in, got, want)
		}
	}
}
