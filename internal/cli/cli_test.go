package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strconv"
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
			"exitcode":  exitCode,
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

// exitCode runs a program like exec and checks its exact exit status: exec and ! exec only
// tell success from failure, and benchy's contract separates 1 (bad input) from 2 (bad
// command line). Usage: exitcode N PROGRAM [ARGS...]. Its stdout and stderr can be checked
// afterwards as with exec.
func exitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}
