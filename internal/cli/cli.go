package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1 // the input is invalid, or the work failed
	ExitUsage = 2 // the command line is wrong
)

// env is what a command may touch: its arguments and standard streams. Files are read and
// written through the os package directly, relative to the process's working directory.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

type command struct {
	name, args, summary string
	run                 func(e *env, args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"compile", "[--pretty] [--hash] FILE", "compile a benchmark to canonical JSON IR on stdout", runCompile},
		{"validate", "[--json] FILE", "check a benchmark; print every problem with its position", runValidate},
		{"fmt", "[-w] FILE", "print the canonical YAML spelling of a benchmark (-w rewrites the file)", runFmt},
		{"run", "[--runtime FILE] [-o results.json] [--concurrency N] [--limit N] BENCHMARK", "run a benchmark (YAML or IR JSON) against its AI-system", runRun},
		{"runs", "list|show|export [flags] [ID]", "list, show and export the runs stored in a workspace", runRuns},
		{"serve", "[--workspace DIR] [--addr 127.0.0.1:8080] [--token TOKEN] [--allowed-host NAME[:PORT]]", "serve a workspace's benchmarks over HTTP for the browser app", runServe},
		{"ontology", "[--json]", "list the tasks, domains and languages of the ontology", runOntology},
		{"schema", "[--ir]", "print the JSON Schema of benchmark YAML files (--ir: of the IR)", runSchema},
	}
}

// Main runs the benchy command line and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			return Main([]string{args[1], "--help"}, stdin, stdout, stderr)
		}
		usage(stdout)
		return ExitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "benchy: unknown command %q\n\n", args[0])
	usage(stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Benchy compiles, checks and runs task-oriented AI benchmarks.")
	fmt.Fprintln(w, "\nUsage:\n  benchy COMMAND [flags] [FILE]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nFILE may be - for standard input. Run 'benchy COMMAND --help' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 success, 1 invalid input or failure, 2 usage error.")
}

// flags builds a command's flag set with a usage message in the house style.
func flags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	for _, c := range commands {
		if c.name == name {
			fs.Usage = func() {
				w := fs.Output()
				fmt.Fprintf(w, "Usage: benchy %s %s\n\n%s.\n", c.name, c.args, upperFirst(c.summary))
				if hasFlags(fs) {
					fmt.Fprintln(w, "\nFlags:")
					fs.PrintDefaults()
				}
			}
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parse parses flags that may come before or after the positional arguments, and checks the
// number of positional arguments. It returns ok false with the exit code to use.
func parse(e *env, fs *flag.FlagSet, args []string, nargs int) (pos []string, code int, ok bool) {
	return parseArgs(e, fs, args, nargs, "FILE")
}

// parseArgs is parse for a command whose positional argument is what, not a FILE.
func parseArgs(e *env, fs *flag.FlagSet, args []string, nargs int, what string) (pos []string, code int, ok bool) {
	for {
		// The flag package prints usage before returning ErrHelp; silence it so --help
		// prints once, on stdout.
		fs.SetOutput(io.Discard)
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return nil, ExitOK, false
		}
		fs.SetOutput(e.stderr)
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy %s: %v\n", fs.Name(), err)
			fs.Usage()
			return nil, ExitUsage, false
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
		if len(args) > 0 && args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
	}
	if len(pos) != nargs {
		if nargs == 0 {
			fmt.Fprintf(e.stderr, "benchy %s: takes no arguments\n", fs.Name())
		} else {
			fmt.Fprintf(e.stderr, "benchy %s: expects exactly one %s\n", fs.Name(), what)
		}
		fs.Usage()
		return nil, ExitUsage, false
	}
	return pos, ExitOK, true
}

// readInput reads a named file, or standard input for "-".
func readInput(e *env, name string) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(io.LimitReader(e.stdin, maxInput+1))
		if err == nil && len(data) > maxInput {
			err = fmt.Errorf("standard input is larger than %d MiB; a benchmark definition is never that big", maxInput>>20)
		}
		return data, err
	}
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s is a directory", name)
	}
	if info.Size() > maxInput {
		return nil, fmt.Errorf("%s is larger than %d MiB; a benchmark definition is never that big", name, maxInput>>20)
	}
	return os.ReadFile(name)
}

// maxInput bounds what the CLI reads as one benchmark file.
const maxInput = 64 << 20

// displayName is how a file is named in diagnostics.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
