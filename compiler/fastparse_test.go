package compiler

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// sameTree compares two node trees, ignoring comments and lookup indexes, which only the
// full parser keeps.
func sameTree(a, b *node, at string) error {
	if a.kind != b.kind || a.line != b.line || a.col != b.col || a.text != b.text ||
		a.quoted != b.quoted || a.flow != b.flow || len(a.pairs) != len(b.pairs) || len(a.items) != len(b.items) ||
		(a.num != b.num && a.num == a.num) {
		return fmt.Errorf("%s: fast %+v, full %+v", at, *a, *b)
	}
	for i := range a.pairs {
		pa, pb := a.pairs[i], b.pairs[i]
		if pa.key != pb.key || pa.keyKind != pb.keyKind || pa.line != pb.line || pa.col != pb.col {
			return fmt.Errorf("%s: key %d: fast %q %d:%d, full %q %d:%d", at, i, pa.key, pa.line, pa.col, pb.key, pb.line, pb.col)
		}
		if err := sameTree(pa.value, pb.value, at+"."+pa.key); err != nil {
			return err
		}
	}
	for i := range a.items {
		if err := sameTree(a.items[i], b.items[i], fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// checkFast holds parseFast to parseFull on src: where the fast path answers, the full
// parser must build the same tree with the same diagnostics (duplicate keys).
func checkFast(t *testing.T, name string, src []byte) bool {
	t.Helper()
	l, _ := lex(bytes.TrimPrefix(src, bom))
	if l == nil {
		return false
	}
	fast, fds, _, ok := parseFast(l)
	if !ok {
		return false
	}
	full, ds := parseFull(src, false)
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
