package cli_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/benchy-eval/benchy/internal/cli"
)

// TestMain lets the test binary double as the benchy command, so scripts run the real
// command line (flags, streams, exit codes) without building cmd/benchy first.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"benchy": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar; each script is one CLI contract with its YAML
// inline. Run one with go test ./internal/cli -run TestScripts/NAME.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonvalid": jsonValid,
		},
	})
}

// jsonValid checks that each named file (stdout and stderr included) holds exactly one JSON
// value: testscript's regexps can see a key but not that the whole text parses.
func jsonValid(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: jsonvalid FILE...")
	}
	for _, name := range args {
		var v any
		err := json.Unmarshal([]byte(ts.ReadFile(name)), &v)
		switch {
		case err != nil && !neg:
			ts.Fatalf("%s is not valid JSON: %v", name, err)
		case err == nil && neg:
			ts.Fatalf("%s is valid JSON", name)
		}
	}
}
