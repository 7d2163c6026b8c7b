//go:build unix

package cli_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// messyBench is a valid benchmark fmt -w rewrites (its keys are out of order).
const messyBench = `data:
  path: ./data.jsonl
version: "1.0"
ontology_version: "1.0"
benchmark:
  task: extract
  domain: finance
  language: es
program:
  input:
    image: image
  output:
    total: float
scoring:
  aggregator: weighted_mean
  weights:
    total: 1
ai-system:
  type: external
  id: x
`

// nobody is the user the tests run benchy as when they run as root.
const nobody = 65534

// benchyCommand copies this test binary, which is benchy under that name (TestMain), to a
// folder anyone may read, so it can be run as another user.
func benchyCommand(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := openTempDir(t)
	bin := filepath.Join(dir, "benchy")
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(bin, os.O_WRONLY|os.O_CREATE, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// openTempDir is a temporary folder every user may enter and write (0777), as a shared
// folder is.
func openTempDir(t *testing.T) string {
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runFmtW runs benchy fmt -w name in dir, as user uid unless that is the user already;
// it returns the exit status and stderr.
func runFmtW(t *testing.T, bin, dir, name string, uid int) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, "fmt", "-w", name)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	if uid != os.Geteuid() {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stderr.String()
	}
	t.Fatal(err)
	return 0, ""
}

func owner(t *testing.T, name string) (uid, gid uint32, mode os.FileMode) {
	t.Helper()
	info, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid, info.Mode().Perm()
}

// TestFmtWriteReadOnly: fmt -w does not replace a file its user may not write. The rename
// it writes through needs only the folder's permission, so the old fmt -w replaced a 0444
// file of root's in a shared folder when run as another user, and the file became theirs.
// As root (who may write anything) it checks that the rewrite keeps mode 0444.
func TestFmtWriteReadOnly(t *testing.T) {
	bin := benchyCommand(t)
	dir := openTempDir(t)
	name := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(name, []byte(messyBench), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o444); err != nil {
		t.Fatal(err)
	}
	as := os.Geteuid()
	if as == 0 {
		as = nobody // root may write anything: refuse another user instead
	}
	code, stderr := runFmtW(t, bin, dir, "bench.yaml", as)
	if code != 1 || !strings.Contains(stderr, "you may not write this file (mode -r--r--r--), so fmt -w leaves it as it is") {
		t.Errorf("fmt -w of a 0444 file as uid %d: exit %d, stderr %q; want 1 and why", as, code, stderr)
	}
	if got, _ := os.ReadFile(name); string(got) != messyBench {
		t.Errorf("the 0444 file changed:\n%s", got)
	}
	if uid, _, mode := owner(t, name); uid != uint32(os.Geteuid()) || mode != 0o444 {
		t.Errorf("the 0444 file is now uid %d mode %v", uid, mode)
	}
	if os.Geteuid() != 0 {
		return
	}
	if code, stderr := runFmtW(t, bin, dir, "bench.yaml", 0); code != 0 {
		t.Fatalf("fmt -w of a 0444 file as root: exit %d, %s", code, stderr)
	}
	if got, _ := os.ReadFile(name); string(got) == messyBench {
		t.Error("root's fmt -w did not rewrite the file")
	}
	if _, _, mode := owner(t, name); mode != 0o444 {
		t.Errorf("root's fmt -w made the 0444 file %v", mode)
	}
}

// TestFmtWriteKeepsFile: fmt -w keeps the file's mode (0640 stays 0640, not the temporary
// file's 0600) and, run by root on another user's file, its owner and group: the old fmt -w
// left root's rewrite of a user's benchmark owned by root.
func TestFmtWriteKeepsFile(t *testing.T) {
	bin := benchyCommand(t)
	dir := openTempDir(t)
	name := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(name, []byte(messyBench), 0o640); err != nil {
		t.Fatal(err)
	}
	wantUID, wantGID, _ := owner(t, name)
	if os.Geteuid() == 0 {
		wantUID, wantGID = nobody, nobody
		if err := os.Chown(name, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	if code, stderr := runFmtW(t, bin, dir, "bench.yaml", os.Geteuid()); code != 0 {
		t.Fatalf("fmt -w: exit %d, %s", code, stderr)
	}
	if got, _ := os.ReadFile(name); string(got) == messyBench {
		t.Error("fmt -w did not rewrite the file")
	}
	if uid, gid, mode := owner(t, name); uid != wantUID || gid != wantGID || mode != 0o640 {
		t.Errorf("after fmt -w the file is %d:%d %v, want %d:%d -rw-r-----", uid, gid, mode, wantUID, wantGID)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".bench.yaml.*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
