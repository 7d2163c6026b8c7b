package yamlnode

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchmarkFiles lists the compiler's test benchmarks: the texts the fast path is for.
func benchmarkFiles() []string {
	files, _ := filepath.Glob("../../compiler/testdata/*/*.yaml")
	equiv, _ := filepath.Glob("../../compiler/testdata/equiv/*/*.yaml")
	return append(files, equiv...)
}

// suiteFiles lists the in.yaml texts of the YAML test suite (beside the repository, in
// ../shared/corpus), or none when it is absent.
func suiteFiles() []string {
	const dir = "../../../shared/corpus/yaml-test-suite"
	files, _ := filepath.Glob(filepath.Join(dir, "*", "in.yaml"))
	nested, _ := filepath.Glob(filepath.Join(dir, "*", "*", "in.yaml"))
	return append(files, nested...)
}

// sameTree compares two node trees, ignoring comments and lookup indexes, which only the
// full parser keeps.
func sameTree(a, b *Node, at string) error {
	if a.Kind != b.Kind || a.Line != b.Line || a.Col != b.Col || a.Text != b.Text ||
		a.Quoted != b.Quoted || a.Flow != b.Flow || len(a.Pairs) != len(b.Pairs) || len(a.Items) != len(b.Items) ||
		(a.Num != b.Num && a.Num == a.Num) {
		return fmt.Errorf("%s: fast %+v, full %+v", at, *a, *b)
	}
	for i := range a.Pairs {
		pa, pb := a.Pairs[i], b.Pairs[i]
		if pa.Key != pb.Key || pa.KeyKind != pb.KeyKind || pa.Line != pb.Line || pa.Col != pb.Col {
			return fmt.Errorf("%s: key %d: fast %q %d:%d, full %q %d:%d", at, i, pa.Key, pa.Line, pa.Col, pb.Key, pb.Line, pb.Col)
		}
		if err := sameTree(pa.Value, pb.Value, at+"."+pa.Key); err != nil {
			return err
		}
	}
	for i := range a.Items {
		if err := sameTree(a.Items[i], b.Items[i], fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// checkFast holds parseFast to parseFull on src: where the fast path answers, the full
// parser must build the same tree with the same diagnostics (duplicate keys).
func checkFast(t *testing.T, name string, src []byte) bool {
	t.Helper()
	l, _ := lex(bytes.TrimPrefix(src, bom), "benchmark file")
	if l == nil {
		return false
	}
	fast, fds, _, ok := parseFast(l)
	if !ok {
		return false
	}
	full, ds, _ := Parse(src, Options{Full: true})
	if full == nil {
		t.Errorf("%s: the fast parser accepts what the full parser rejects: %v", name, ds)
		return true
	}
	if fds.Error() != ds.Error() {
		t.Errorf("%s: diagnostics differ:\nfast: %v\nfull: %v", name, fds, ds)
	}
	if err := sameTree(fast, full, "$"); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	return true
}

func TestFastParseAgreesWithFull(t *testing.T) {
	suite := suiteFiles()
	fastOurs, ours := 0, 0
	for _, f := range benchmarkFiles() {
		src, _ := os.ReadFile(f)
		ours++
		if checkFast(t, f, src) {
			fastOurs++
		}
	}
	fastSuite := 0
	for _, f := range suite {
		src, _ := os.ReadFile(f)
		if checkFast(t, f, src) {
			fastSuite++
		}
	}
	t.Logf("fast path answered for %d of %d benchmark cases and %d of %d YAML test suite texts", fastOurs, ours, fastSuite, len(suite))
	if fastOurs*10 < ours*7 {
		t.Errorf("the fast path answers only %d of %d cases; it has stopped being the common path", fastOurs, ours)
	}
}

// FuzzFastParse: wherever the fast path answers, the full parser agrees.
func FuzzFastParse(f *testing.F) {
	for _, file := range benchmarkFiles() {
		src, _ := os.ReadFile(file)
		f.Add(src)
	}
	for _, s := range []string{"a: [b, {c: d}]\n", "- a\n- [b]\n", "a:\n- b\nc: d\n", "k: 'x''y'\n", "a: b\n  c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if strings.Count(string(src), "\n") > 200 {
			return
		}
		checkFast(t, "input", src)
	})
}
