package compiler

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

var update = flag.Bool("update", false, "rewrite golden files from the compiler's output")

// goldenCase is one testdata/compile case: NAME.yaml with NAME.ir.json when it compiles, or
// NAME.diag.json when it does not.
type goldenCase struct {
	name, yamlPath, irPath, diagPath string
}

func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	files, err := filepath.Glob("testdata/compile/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	var cases []goldenCase
	for _, f := range files {
		base := strings.TrimSuffix(f, ".yaml")
		cases = append(cases, goldenCase{filepath.Base(base), f, base + ".ir.json", base + ".diag.json"})
	}
	return cases
}

// benchmarkFiles lists every benchmark text under testdata: the golden cases, the
// equivalence groups and the fmt inputs and outputs.
func benchmarkFiles() []string {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	equiv, _ := filepath.Glob("testdata/equiv/*/*.yaml")
	return append(files, equiv...)
}

// suiteFiles lists the in.yaml texts of the YAML test suite, or none when it is absent.
func suiteFiles() []string {
	files, _ := filepath.Glob(filepath.Join(suiteDir, "*", "in.yaml"))
	nested, _ := filepath.Glob(filepath.Join(suiteDir, "*", "*", "in.yaml"))
	return append(files, nested...)
}

// prettyIR is how goldens store the IR: indented for review; the test canonicalises it back
// and compares bytes.
func prettyIR(canonical []byte) []byte {
	var buf bytes.Buffer
	json.Indent(&buf, canonical, "", "  ")
	buf.WriteByte('\n')
	return buf.Bytes()
}

func diagJSON(ds diag.List) []byte { return ds.JSON() }

// TestGolden compiles every case and compares with its golden file. Run with -update to
// rewrite them; under GOOS=js the same goldens prove the WASM build emits the same bytes.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.yamlPath)
			if err != nil {
				t.Fatal(err)
			}
			canonical, hash, ds := CompileCanonical(src)
			if *update {
				os.Remove(c.irPath)
				os.Remove(c.diagPath)
				if len(ds) > 0 {
					os.WriteFile(c.diagPath, diagJSON(ds), 0o644)
				} else {
					os.WriteFile(c.irPath, prettyIR(canonical), 0o644)
				}
				return
			}
			wantIR, irErr := os.ReadFile(c.irPath)
			wantDiag, diagErr := os.ReadFile(c.diagPath)
			switch {
			case irErr == nil && diagErr == nil:
				t.Fatalf("both %s and %s exist", c.irPath, c.diagPath)
			case irErr == nil:
				if len(ds) > 0 {
					t.Fatalf("want IR, got diagnostics:\n%s", ds.Format(c.yamlPath))
				}
				want, err := ir.Canonicalize(wantIR)
				if err != nil {
					t.Fatalf("golden %s: %v", c.irPath, err)
				}
				if !bytes.Equal(canonical, want) {
					t.Errorf("IR differs from %s\ngot:  %s\nwant: %s", c.irPath, canonical, want)
				}
				if hash != ir.Hash(want) {
					t.Errorf("hash %s, want %s", hash, ir.Hash(want))
				}
			case diagErr == nil:
				if got := diagJSON(ds); !bytes.Equal(got, wantDiag) {
					t.Errorf("diagnostics differ from %s\ngot:\n%s\nwant:\n%s", c.diagPath, got, wantDiag)
				}
			default:
				t.Fatalf("no golden file for %s; run go test ./compiler -update", c.yamlPath)
			}
		})
	}
}

// TestGoldenOrphans fails when a golden file has lost its case.
func TestGoldenOrphans(t *testing.T) {
	for _, pattern := range []string{"testdata/compile/*.ir.json", "testdata/compile/*.diag.json"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			base := strings.TrimSuffix(strings.TrimSuffix(f, ".ir.json"), ".diag.json")
			if _, err := os.Stat(base + ".yaml"); err != nil {
				t.Errorf("golden %s has no case %s.yaml", f, base)
			}
		}
	}
}

// TestEveryCodeHasACase checks the code registry against the cases: every diagnostic carries
// a registered code, and every compile-time code has a minimal case err_<code>*.yaml that
// reports that code and no other.
func TestEveryCodeHasACase(t *testing.T) {
	seen := map[diag.Code]bool{}
	for _, c := range goldenCases(t) {
		src, _ := os.ReadFile(c.yamlPath)
		_, ds := Compile(src)
		for _, d := range ds {
			if !diag.Registered(d.Code) {
				t.Errorf("%s: unregistered code %q", c.name, d.Code)
			}
		}
		code, minimal := strings.CutPrefix(c.name, "err_")
		if !minimal {
			if strings.HasPrefix(c.name, "ok_") && len(ds) > 0 {
				t.Errorf("%s: an ok_ case must compile:\n%s", c.name, ds.Format(c.yamlPath))
			}
			continue
		}
		for code != "" && !diag.Registered(diag.Code(code)) {
			i := strings.LastIndexByte(code, '_')
			if i < 0 {
				code = ""
				break
			}
			code = code[:i]
		}
		if code == "" {
			t.Errorf("%s: name does not start with a registered code", c.name)
			continue
		}
		if len(ds) == 0 {
			t.Errorf("%s: compiles, but should fail with %s", c.name, code)
		}
		if diag.Code(code) == diag.TooManyDiagnostics {
			// It sums up the problems left out, so comes after MaxDiagnostics others.
			if len(ds) != yamlnode.MaxDiagnostics+1 || ds[len(ds)-1].Code != diag.TooManyDiagnostics || ds[:yamlnode.MaxDiagnostics].Has(diag.TooManyDiagnostics) {
				t.Errorf("%s: %d diagnostics; want %d ending with the one %s", c.name, len(ds), yamlnode.MaxDiagnostics+1, code)
			}
			seen[diag.Code(code)] = true
			continue
		}
		for _, d := range ds {
			if d.Code != diag.Code(code) {
				t.Errorf("%s: reports %s (%s); a minimal case reports only %s", c.name, d.Code, d.Message, code)
			}
		}
		seen[diag.Code(code)] = true
	}
	for _, code := range compileCodes {
		if !seen[code] {
			t.Errorf("no minimal case testdata/compile/err_%s.yaml", code)
		}
	}
}

// compileCodes are the codes the compiler can emit from YAML with the embedded registry.
// unsupported_task needs a registry with a task Benchy has no rule for; rules_test.go
// injects one.
var compileCodes = []diag.Code{
	diag.InvalidYAML, diag.DuplicateKey, diag.UnknownKey, diag.MissingKey, diag.UnsupportedVersion,
	diag.UnsupportedOntologyVersion, diag.UnknownTask, diag.UnknownDomain, diag.UnknownLanguage,
	diag.TaskProgramMismatch, diag.InvalidSchema, diag.MissingWeight, diag.ExtraWeight,
	diag.InvalidWeight, diag.InvalidValue, diag.TooLarge, diag.TooDeep, diag.TooManyDiagnostics,
}

// TestEquivalentSpellings compiles each group under testdata/equiv: every file of a group
// means the same benchmark, so all must give the same IR bytes.
func TestEquivalentSpellings(t *testing.T) {
	groups, _ := filepath.Glob("testdata/equiv/*")
	if len(groups) == 0 {
		t.Fatal("no equivalence groups")
	}
	for _, g := range groups {
		t.Run(filepath.Base(g), func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(g, "*.yaml"))
			if len(files) < 2 {
				t.Fatalf("a group needs at least two spellings")
			}
			var first []byte
			for _, f := range files {
				src, _ := os.ReadFile(f)
				canonical, _, ds := CompileCanonical(src)
				if len(ds) > 0 {
					t.Fatalf("%s:\n%s", f, ds.Format(f))
				}
				if first == nil {
					first = canonical
				} else if !bytes.Equal(first, canonical) {
					t.Errorf("%s gives different IR bytes from %s:\n%s\n%s", f, files[0], canonical, first)
				}
			}
		})
	}
}

// TestDeterministic compiles every case twice and compares the bytes.
func TestDeterministic(t *testing.T) {
	for _, c := range goldenCases(t) {
		src, _ := os.ReadFile(c.yamlPath)
		a, _, da := CompileCanonical(src)
		b, _, db := CompileCanonical(src)
		if !bytes.Equal(a, b) || !slices.EqualFunc(da, db, func(x, y diag.Diagnostic) bool { return x.String() == y.String() }) {
			t.Errorf("%s: two compilations differ", c.name)
		}
	}
}
