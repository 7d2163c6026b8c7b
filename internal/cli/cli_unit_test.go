package cli_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/cli"
)

const okYAML = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: classify
  domain: customer_support
  language: en
program:
  input:
    text: string
  output:
    sentiment:
      enum: [positive, neutral, negative]
scoring:
  weights:
    sentiment: 1
  aggregator: weighted_mean
data:
  path: ./data/exam.jsonl
ai-system:
  type: external
  id: sys-1
`

// badYAML has two independent problems: an unknown top-level key and a misspelt domain.
var badYAML = strings.Replace(strings.Replace(okYAML, "customer_support", "custmer_support", 1),
	"ai-system:", "ai_system: x\nai-system:", 1)

const syntaxYAML = "version: \"1.0\"\nbenchmark: [extract, finance\n"

// run calls cli.Main in-process and returns the exit code and both streams.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Main(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// write puts content in a fresh temporary directory and returns its path.
func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExitCodes(t *testing.T) {
	ok := write(t, "ok.yaml", okYAML)
	bad := write(t, "bad.yaml", badYAML)
	syntax := write(t, "syntax.yaml", syntaxYAML)
	missing := filepath.Join(t.TempDir(), "missing.yaml")

	tests := []struct {
		name       string
		args       []string
		stdin      string
		code       int
		stdout     string // substring of stdout; "" means stdout must be empty
		stderr     string // substring of stderr; "" means stderr must be empty
		jsonStdout bool   // stdout must be valid JSON
	}{
		{name: "no command", code: 2, stderr: "Usage:"},
		{name: "unknown command", args: []string{"build"}, code: 2, stderr: `unknown command "build"`},
		{name: "help", args: []string{"help"}, code: 0, stdout: "Usage:"},
		{name: "--help", args: []string{"--help"}, code: 0, stdout: "Usage:"},

		{name: "compile valid", args: []string{"compile", ok}, code: 0, stdout: `{"ai_system":`, jsonStdout: true},
		{name: "compile pretty", args: []string{"compile", "--pretty", ok}, code: 0, stdout: "{\n  \"ai_system\": {\n", jsonStdout: true},
		{name: "compile hash", args: []string{"compile", "--hash", ok}, code: 0, stdout: "sha256:"},
		{name: "compile stdin", args: []string{"compile", "-"}, stdin: okYAML, code: 0, stdout: `{"ai_system":`},
		{name: "compile invalid", args: []string{"compile", bad}, code: 1, stderr: "unknown_domain"},
		{name: "compile syntax error", args: []string{"compile", syntax}, code: 1, stderr: "invalid_yaml"},
		{name: "compile missing file", args: []string{"compile", missing}, code: 1, stderr: "missing.yaml"},
		{name: "compile no file", args: []string{"compile"}, code: 2, stderr: "expects exactly one FILE"},
		{name: "compile two files", args: []string{"compile", ok, ok}, code: 2, stderr: "expects exactly one FILE"},
		{name: "compile unknown flag", args: []string{"compile", "--frob", ok}, code: 2, stderr: "-frob"},

		{name: "validate valid", args: []string{"validate", ok}, code: 0},
		{name: "validate invalid", args: []string{"validate", bad}, code: 1, stderr: "(did you mean ai-system?)"},
		{name: "validate stdin", args: []string{"validate", "-"}, stdin: badYAML, code: 1, stderr: "<stdin>:"},
		{name: "validate json valid", args: []string{"validate", "--json", ok}, code: 0, stdout: "[]\n"},
		{name: "validate json invalid", args: []string{"validate", "--json", bad}, code: 1, stdout: `"code": "unknown_key"`, jsonStdout: true},
		{name: "validate json after file", args: []string{"validate", bad, "--json"}, code: 1, stdout: `"suggestion": "customer_support"`, jsonStdout: true},
		{name: "validate missing file", args: []string{"validate", missing}, code: 1, stderr: "missing.yaml"},

		{name: "fmt valid", args: []string{"fmt", ok}, code: 0, stdout: "version: \"1.0\"\n"},
		{name: "fmt invalid benchmark", args: []string{"fmt", bad}, code: 1, stderr: "(did you mean ai-system?)"},
		{name: "fmt syntax error", args: []string{"fmt", syntax}, code: 1, stderr: ": invalid_yaml: "},
		{name: "fmt -w stdin", args: []string{"fmt", "-w", "-"}, stdin: okYAML, code: 2, stderr: "-w needs a file"},
		{name: "fmt missing file", args: []string{"fmt", missing}, code: 1, stderr: "missing.yaml"},

		{name: "ontology", args: []string{"ontology"}, code: 0, stdout: "  es  Spanish"},
		{name: "ontology json", args: []string{"ontology", "--json"}, code: 0, stdout: `"version": "1.0"`, jsonStdout: true},
		{name: "ontology argument", args: []string{"ontology", "x"}, code: 2, stderr: "takes no arguments"},
		{name: "schema", args: []string{"schema"}, code: 0, stdout: `"$schema"`, jsonStdout: true},
		{name: "schema ir", args: []string{"schema", "--ir"}, code: 0, stdout: `"ai_system"`, jsonStdout: true},
		{name: "schema argument", args: []string{"schema", "x"}, code: 2, stderr: "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("benchy %s: exit %d, want %d\nstderr:\n%s", strings.Join(tt.args, " "), code, tt.code, stderr)
			}
			switch {
			case tt.stdout == "" && stdout != "":
				t.Errorf("stdout should be empty:\n%s", stdout)
			case !strings.Contains(stdout, tt.stdout):
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, stdout)
			}
			switch {
			case tt.stderr == "" && stderr != "":
				t.Errorf("stderr should be empty:\n%s", stderr)
			case !strings.Contains(stderr, tt.stderr):
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr)
			}
			if tt.jsonStdout && !json.Valid([]byte(stdout)) {
				t.Errorf("stdout is not valid JSON:\n%s", stdout)
			}
		})
	}
}

// TestHelpOnStdoutOnly: asking for help is not an error, so the usage goes to stdout alone.
func TestHelpOnStdoutOnly(t *testing.T) {
	for _, args := range [][]string{{"compile", "--help"}, {"validate", "-h"}, {"help", "fmt"}, {"ontology", "--help"}, {"schema", "--help"}} {
		code, stdout, stderr := run(t, "", args...)
		if code != 0 || !strings.HasPrefix(stdout, "Usage: benchy ") || stderr != "" {
			t.Errorf("benchy %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// TestCompileForms checks that the three outputs of compile agree: --pretty is the canonical
// bytes indented, and --hash is the sha256 of the canonical bytes.
func TestCompileForms(t *testing.T) {
	ok := write(t, "ok.yaml", okYAML)
	_, canonical, _ := run(t, "", "compile", ok)
	_, pretty, _ := run(t, "", "compile", "--pretty", ok)
	_, hash, _ := run(t, "", "compile", "--hash", ok)

	if strings.ContainsAny(canonical, " \t\r\n") {
		t.Errorf("canonical IR has whitespace: %q", canonical)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(pretty)); err != nil {
		t.Fatalf("--pretty is not JSON: %v", err)
	}
	if compact.String() != canonical {
		t.Errorf("--pretty is not the canonical IR indented:\n%s\n---\n%s", compact.String(), canonical)
	}
	sum := sha256.Sum256([]byte(canonical))
	if want := "sha256:" + hex.EncodeToString(sum[:]) + "\n"; hash != want {
		t.Errorf("--hash printed %q, want %q", hash, want)
	}
	if _, again, _ := run(t, "", "compile", ok); again != canonical {
		t.Errorf("compile is not deterministic:\n%s\n---\n%s", canonical, again)
	}
}

// TestCompileInvalidMatchesValidate checks that compile reports exactly what validate does.
func TestCompileInvalidMatchesValidate(t *testing.T) {
	bad := write(t, "bad.yaml", badYAML)
	_, _, compileErr := run(t, "", "compile", bad)
	_, _, validateErr := run(t, "", "validate", bad)
	if compileErr != validateErr {
		t.Errorf("compile stderr:\n%s\nvalidate stderr:\n%s", compileErr, validateErr)
	}
	if n := strings.Count(validateErr, "\n"); n != 2 {
		t.Errorf("want 2 diagnostics (unknown_key, unknown_domain), got %d:\n%s", n, validateErr)
	}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(validateErr, "\n"), "\n") {
		if !strings.HasPrefix(line, bad+":") {
			t.Errorf("diagnostic does not start with FILE:LINE:COL: %q", line)
		}
	}
}

// TestValidateJSONFields checks every diagnostic object carries the documented fields.
func TestValidateJSONFields(t *testing.T) {
	bad := write(t, "bad.yaml", badYAML)
	code, stdout, stderr := run(t, "", "validate", "--json", bad)
	if code != 1 || stderr != "" {
		t.Fatalf("exit %d, stderr %q; want 1 and nothing", code, stderr)
	}
	var ds []map[string]any
	if err := json.Unmarshal([]byte(stdout), &ds); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s", err, stdout)
	}
	if len(ds) != 2 {
		t.Fatalf("want 2 diagnostics, got %d:\n%s", len(ds), stdout)
	}
	want := map[string]string{"unknown_key": "ai-system", "unknown_domain": "customer_support"}
	for _, d := range ds {
		for _, k := range []string{"phase", "code", "path", "message", "line", "column", "suggestion"} {
			if _, ok := d[k]; !ok {
				t.Errorf("diagnostic lacks %q: %v", k, d)
			}
		}
		code, _ := d["code"].(string)
		if s, ok := want[code]; !ok || d["suggestion"] != s {
			t.Errorf("unexpected diagnostic %v; want suggestions %v", d, want)
		}
		if d["phase"] != "validate" {
			t.Errorf("phase %v, want validate", d["phase"])
		}
	}
}

// TestFmtWrite checks that fmt -w writes what fmt prints, keeps the file's permissions, and
// leaves a file it cannot format untouched.
func TestFmtWrite(t *testing.T) {
	messy := strings.ReplaceAll(okYAML, "  ", "    ")
	p := write(t, "messy.yaml", messy)
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	_, want, _ := run(t, "", "fmt", p)
	if want != okYAML {
		t.Errorf("fmt printed:\n%s\nwant:\n%s", want, okYAML)
	}
	if code, stdout, stderr := run(t, "", "fmt", "-w", p); code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("fmt -w: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, _ := os.ReadFile(p)
	if string(got) != want {
		t.Errorf("fmt -w wrote:\n%s\nwant:\n%s", got, want)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
		t.Errorf("fmt -w changed permissions to %v", info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("fmt -w left files behind: %v", entries)
	}

	s := write(t, "syntax.yaml", syntaxYAML)
	if code, _, _ := run(t, "", "fmt", "-w", s); code != 1 {
		t.Errorf("fmt -w on a syntax error: exit %d, want 1", code)
	}
	if got, _ := os.ReadFile(s); string(got) != syntaxYAML {
		t.Errorf("fmt -w changed a file it could not format:\n%s", got)
	}
}

func TestFmtWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	link := filepath.Join(dir, "link.yaml")
	os.WriteFile(target, []byte(strings.ReplaceAll(okYAML, "  ", "    ")), 0o644)
	if err := os.Symlink("real.yaml", link); err != nil {
		t.Skip(err)
	}
	if code, _, stderr := run(t, "", "fmt", "-w", link); code != 0 {
		t.Fatalf("fmt -w: exit %d: %s", code, stderr)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.yaml is no longer a symlink")
	}
	if got, _ := os.ReadFile(target); string(got) != okYAML {
		t.Errorf("the symlink's target was not formatted:\n%s", got)
	}
}

// TestFmtCommentInFlowMapping: a comment inside a flow mapping must not end up on another
// key. Format documents that it refuses such comments; keeping it on its own key is fine too.
func TestFmtCommentInFlowMapping(t *testing.T) {
	p := write(t, "flow.yaml", "version: \"1.0\"\nbenchmark: {task: extract, # the task\n  domain: finance}\n")
	code, stdout, _ := run(t, "", "fmt", p)
	if code == 0 && !strings.Contains(stdout, "task: extract # the task\n") {
		t.Errorf("the comment moved to another key:\n%s", stdout)
	}
}
