package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// TestFormatProperties runs fmt over every golden and equivalence case: formatting is
// idempotent, keeps every comment, and a valid file compiles to the same IR hash before and
// after. An invalid file stays invalid with the same codes.
func TestFormatProperties(t *testing.T) {
	files := benchmarkFiles()
	formatted := 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		out, ds := Format(src)
		if len(ds) > 0 {
			if ds[0].Code == diag.UnplacedComment {
				t.Errorf("%s: %v", f, ds) // a comment fmt cannot place, not a problem of the file
			}
			continue
		}
		formatted++
		again, ds := Format(out)
		if len(ds) > 0 {
			t.Errorf("%s: formatted output does not format: %v\n%s", f, ds, out)
			continue
		}
		if !bytes.Equal(out, again) {
			t.Errorf("%s: fmt is not idempotent:\n%s\n---\n%s", f, out, again)
		}
		_, h1, d1 := CompileCanonical(src)
		_, h2, d2 := CompileCanonical(out)
		if h1 != h2 {
			t.Errorf("%s: fmt changed the IR hash %s -> %s\n%s", f, h1, h2, out)
		}
		if codes(d1) != codes(d2) {
			t.Errorf("%s: fmt changed the diagnostics %s -> %s\n%s", f, codes(d1), codes(d2), out)
		}
	}
	if formatted < 50 {
		t.Errorf("only %d files formatted; the property is barely exercised", formatted)
	}
}

// codes lists the codes of ds, sorted: fmt moves lines, so positions and order may change.
func codes(ds diag.List) string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Code))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestFormatGolden compares fmt output with testdata/fmt/NAME.golden.yaml.
func TestFormatGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/fmt/*.in.yaml")
	if len(files) == 0 {
		t.Fatal("no fmt cases")
	}
	for _, f := range files {
		golden := strings.TrimSuffix(f, ".in.yaml") + ".golden.yaml"
		src, _ := os.ReadFile(f)
		out, ds := Format(src)
		if len(ds) > 0 {
			t.Errorf("%s: %v", f, ds)
			continue
		}
		if *update {
			os.WriteFile(golden, out, 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run with -update)", f, err)
			continue
		}
		if !bytes.Equal(out, want) {
			t.Errorf("%s: fmt output differs from %s:\n%s", f, golden, out)
		}
	}
}

// TestFormatKeepsComments: a comment in a flow mapping moves to the block layout (the YAML
// parser ties it to a neighbouring value); one inside a flow sequence is dropped by the YAML parser, so fmt refuses rather
// than lose it.
func TestFormatKeepsComments(t *testing.T) {
	out, ds := Format([]byte("program:\n  input: {a: string, # the text\n    b: int}\n"))
	if len(ds) > 0 || !bytes.Contains(out, []byte("# the text")) {
		t.Errorf("Format = %q, %v; want the comment kept", out, ds)
	}
	out, ds = Format([]byte("l: {enum: [x, # first\n      y]}\n"))
	if len(ds) != 1 || ds[0].Code != diag.UnplacedComment || !strings.Contains(ds[0].Message, "comment") || out != nil {
		t.Errorf("Format = %q, %v; want one unplaced_comment diagnostic about a comment it cannot place", out, ds)
	}
}

// TestFormatUnplacedComment: a comment the canonical layout has no place for is refused at
// its own position (the first such, with how many there are when more), with fmt's own
// code, not invalid_yaml at 1:1: the YAML is well-formed.
func TestFormatUnplacedComment(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		count     string
	}{
		{"l: {enum: [x, # first\n      y]}\n", 1, 15, ""},
		{"--- # top\nversion: \"1.0\"\n", 1, 5, ""},
		{"a:\n  - x\n  # mid\n  - y\n", 3, 3, ""},
		{"a: [x, # one\n  y, # two\n  z]\n", 1, 8, "(2 of 2 comments have no place)"},
		{"# kept\nb:\n  - 1\n  # kept\n  - 2\n  # kept\n  - 3\n", 4, 3, "(2 of 3 comments have no place)"},
		{"---\t# after a tab\nversion: \"1.0\"\n", 1, 5, ""},
	} {
		out, ds := Format([]byte(c.src))
		if out != nil || len(ds) != 1 {
			t.Errorf("%q: Format = %q, %v; want one diagnostic", c.src, out, ds)
			continue
		}
		d := ds[0]
		if d.Code != diag.UnplacedComment || d.Line != c.line || d.Column != c.col || strings.HasPrefix(d.Message, "fmt:") ||
			!strings.Contains(d.Message, "put it on its own line above a key") || !strings.HasSuffix(d.Message, c.count) {
			t.Errorf("%q: %v; want unplaced_comment at %d:%d ending %q", c.src, d, c.line, c.col, c.count)
		}
	}
}

func TestFormatQuoting(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"./data/x.jsonl", "./data/x.jsonl"},
		{"gpt-4o-mini", "gpt-4o-mini"},
		{"", `""`},
		{"1.0", `"1.0"`},
		{"010", `"010"`},
		{"1_000", `"1_000"`},
		{"yes", `"yes"`},
		{"No", `"No"`},
		{"null", `"null"`},
		{"~", `"~"`},
		{"true", `"true"`},
		{".inf", `".inf"`},
		{"a: b", `"a: b"`},
		{"a #b", `"a #b"`},
		{"-x", `"-x"`},
		{" lead", `" lead"`},
		{"línea", "línea"},
		{"日本語", "日本語"},
		{"say \"hi\"\n", `"say \"hi\"\n"`},
		{"tab\there", `"tab\there"`},
		{"\x01", `"\u0001"`},
		{"\u2028", `"\u2028"`},
		{"[x]", `"[x]"`},
		{"a,b", `"a,b"`},
	}
	for _, tt := range tests {
		got := quote(tt.in)
		if got != tt.want {
			t.Errorf("quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
		// Whatever quote writes must read back as the same string.
		root, ds := parse([]byte("k: " + got + "\n"))
		if len(ds) > 0 {
			t.Errorf("quote(%q) = %s does not parse: %v", tt.in, got, ds)
			continue
		}
		if v, _ := root.Get("k"); v == nil || v.Kind != yamlnode.String || v.Text != tt.in {
			t.Errorf("quote(%q) = %s reads back as %+v", tt.in, got, v)
		}
	}
}
