package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1 // the input is invalid, or the work failed
	ExitUsage = 2 // the command line is wrong
	// ExitInfra is a run that measured its setup, not its AI-system: every example was an
	// execution error (a model server not running, a command that crashes). It wins over
	// ExitFail, so a CI job tells a broken setup from a score under its gate.
	ExitInfra = 3
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
		{"fmt", "[-w] FILE", "print the canonical YAML spelling of a benchmark, or its diagnostics if it is invalid (-w rewrites a valid file)", runFmt},
		{"run", "[--runtime FILE] [-o results.json] [--concurrency N] [--limit N] [--no-store] [--allow-outside] [--system ID]... [--model PROVIDER/MODEL]... [--system-file F.yaml]... [--parallel-systems N] [--fail-under X [--fail-under-ci]] [--junit FILE] [--cache MODE] [--record-requests] [--max-cost USD] [--max-tokens N] [--resume ID] [--estimate] BENCHMARK", "run a benchmark (YAML or IR JSON) against its AI-system, or against each system named", runRun},
		{"runs", "list|show|export|compare [flags] [ID]...", "list, show, export and compare the runs stored in a workspace (a run ID: any unique start or end of it)", runRuns},
		{"report", "[-o report.html] [--examples N] [--workspace DIR] RUN...", "write a self-contained HTML report of stored runs: identities, score and interval, counts, charts, leaderboards, the first N failing examples", runReport},
		{"leaderboard", "[--json] [--dataset DIGEST] [--workspace DIR] BENCHMARK", "rank the AI-systems that took a benchmark on one dataset, from the workspace's runs", runLeaderboard},
		{"merge", "[--benchmark FILE] [--runtime FILE] [--allow-outside] [-o results.json] [--into-store WORKSPACE] DIR", "merge the shards of a sharded run (benchy run --shard K/N --out-dir DIR) into the results one machine would have produced, every result scored again against the benchmark (by default the workspace's one benchmark of the shards' IR hash)", runMerge},
		{"slurm", "submit|status|cancel [flags] ...", "run a benchmark's shards as a Slurm array job, merged when it ends", runSlurm},
		{"k8s", "job [flags] BENCHMARK", "print a Kubernetes Indexed Job that runs a benchmark's shards, and the Job that merges them", runK8s},
		{"serve", "[--workspace DIR] [--addr 127.0.0.1:8080] [--token TOKEN] [--allowed-host NAME[:PORT]]", "serve a workspace's benchmarks over HTTP for the browser app", runServe},
		{"ontology", "[--json]", "list the tasks, domains and languages of the ontology", runOntology},
		{"schema", "[--ir]", "print the JSON Schema of benchmark YAML files (--ir: of the IR)", runSchema},
	}
}

// Main runs the benchy command line and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: liveStderr(stderr)} // a progress bar's lines and the rest share a terminal
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
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nFILE may be - for standard input. Run 'benchy COMMAND --help' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 success, 1 invalid input, failure or a gate not met, 2 usage error, 3 (benchy run) every example an execution error, 4 (benchy run) stopped by its budget.")
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

// oneOrMore is parseArgs's nargs for a command that takes one positional argument or more.
const oneOrMore = -1

// parseArgs is parse for a command whose positional argument is what, not a FILE: nargs
// of them, or with oneOrMore at least one.
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
			// One line and where the help is: the whole usage (forty lines for run) would
			// push the mistake off the screen.
			fmt.Fprintf(e.stderr, "benchy %s: %v\nrun 'benchy %s -h' for help\n", fs.Name(), err, fs.Name())
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
	if len(pos) != nargs && !(nargs == oneOrMore && len(pos) > 0) {
		switch nargs {
		case 0:
			fmt.Fprintf(e.stderr, "benchy %s: takes no arguments\n", fs.Name())
		case 1:
			fmt.Fprintf(e.stderr, "benchy %s: expects exactly one %s\n", fs.Name(), what)
		default:
			fmt.Fprintf(e.stderr, "benchy %s: expects %s\n", fs.Name(), what)
		}
		fs.Usage()
		return nil, ExitUsage, false
	}
	return pos, ExitOK, true
}

// readInput reads the benchmark `benchy run` runs, YAML or IR JSON (workspace.IsIR), as
// readLimited does, up to maxRunInput bytes: a YAML file over the compiler's limit is the
// compiler's to refuse, with the size it has.
func readInput(e *env, name string) ([]byte, error) {
	data, err := readLimited(e, name, maxRunInput)
	var over *overLimit
	switch {
	case !errors.As(err, &over):
		return data, err
	case workspace.IsIR(name, data):
		return nil, tooLarge(name, yamlnode.TooLarge(over.size, maxRunInput, "IR JSON file"))
	}
	return nil, tooLarge(name, yamlnode.TooLarge(over.size, yamlnode.MaxSize, ""))
}

// readBenchmark reads a benchmark YAML file as readLimited does, up to the compiler's limit
// (yamlnode.MaxSize): a file over it is refused with the compiler's own too_large
// diagnostic (a diag.List without a File), so that its size costs nothing.
func readBenchmark(e *env, name string) ([]byte, error) {
	data, err := readLimited(e, name, yamlnode.MaxSize)
	var over *overLimit
	if errors.As(err, &over) {
		return nil, diag.List{yamlnode.TooLarge(over.size, yamlnode.MaxSize, "")}.Err()
	}
	return data, err
}

// inputFailed prints why cmd could not read its FILE: a file too large as its diagnostic,
// as cmd prints the compiler's (asJSON: the JSON array on stdout), anything else as cmd's
// error.
func inputFailed(e *env, cmd, name string, err error, asJSON bool) int {
	var ds diag.List
	switch {
	case !errors.As(err, &ds):
		fmt.Fprintf(e.stderr, "benchy %s: %v\n", cmd, err)
	case asJSON:
		e.stdout.Write(ds.JSON())
	default:
		fmt.Fprint(e.stderr, ds.Format(displayName(name)))
	}
	return ExitFail
}

// maxRunInput bounds the benchmark `benchy run` reads, as the server's default bound for a
// benchmark file (server.DefaultMaxBody) does: 8 MiB, for IR JSON, which is larger than
// the YAML it was compiled from. The largest benchmark the compiler reads (1 MiB, 100,000
// YAML tokens) compiles to an IR of 1 to 3 MB: 16,000 fields in 0.5 MB of YAML give 1.3 MB.
const maxRunInput = 8 << 20

// readLimited reads a named file, or standard input for "-", and never more than limit+1
// bytes of it, so that a huge or endless input costs no more than that. A named file must
// be a regular file: a device is never read and a FIFO never waited on (engine.OpenRegular).
// A text over limit is an *overLimit error, with what was read.
func readLimited(e *env, name string, limit int64) ([]byte, error) {
	var r io.Reader = e.stdin
	size := int64(-1)
	if name != "-" {
		f, err := engine.OpenRegular(name)
		if errors.Is(err, engine.ErrNotRegular) {
			if info, serr := os.Stat(name); serr == nil && info.IsDir() {
				return nil, fmt.Errorf("%s is a directory", name)
			}
			return nil, fmt.Errorf("%s is not a regular file (a device, a FIFO or a socket, which benchy never reads); name a file, or - for standard input", name)
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil {
			size = info.Size()
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		if size <= limit {
			size = -1 // standard input, or a file that grew while it was read
		}
		return data, &overLimit{size}
	}
	return data, err
}

// overLimit is readLimited's error for a text over its limit: size is the file's, or -1
// when it is not known.
type overLimit struct{ size int64 }

func (o *overLimit) Error() string { return "the input is over the size limit" }

// tooLarge is the error of a file too large to read: its too_large diagnostic, naming it
// (benchy run prints it as its error).
func tooLarge(name string, d diag.Diagnostic) error {
	return diag.List{d}.In(displayName(name)).Err()
}

// displayName is how a file is named in diagnostics.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
