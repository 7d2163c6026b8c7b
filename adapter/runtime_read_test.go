package adapter

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/runtimefile"
	"github.com/benchy-eval/benchy/diag"
)

// TestLoadRuntimeReadsRegularFilesOnly: LoadRuntime reads a device (/dev/null), a FIFO
// nobody writes or a folder not at all, and returns at once saying so; it never waits on
// the FIFO. (/dev/zero, which it read until memory ran out, is tried in a process of its
// own by the CLI's TestInputNotRegular, as benchy run --runtime /dev/zero.)
func TestLoadRuntimeReadsRegularFilesOnly(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, path := range []string{"/dev/null", fifo, t.TempDir()} {
		done := make(chan error, 1)
		go func() {
			_, err := LoadRuntime(path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path+" is not a regular file") {
				t.Errorf("%s: err = %v, want it refused as not a regular file", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: LoadRuntime still reading after 5s", path)
		}
	}
}

// TestLoadRuntimeTooLarge: a runtime file over yamlnode.MaxSize is refused with the
// diagnostic the parser gives for its text, naming the file.
func TestLoadRuntimeTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), RuntimeFile)
	src := []byte("bindings: {}\n" + strings.Repeat("#", 2<<20) + "\n")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadRuntime(path)
	_, want := runtimefile.Parse(src)
	var ds diag.List
	if !errors.As(err, &ds) || !reflect.DeepEqual(ds, want.In(path)) {
		t.Errorf("err = %v\nwant %v", err, want.In(path))
	}
	if len(want) != 1 || want[0].Code != diag.InvalidRuntime || !strings.Contains(want[0].Message, "at most 1.0 MiB") {
		t.Errorf("the parser's diagnostic: %v", want)
	}
}

// TestLoadRuntimeTooManyProblems: a runtime file with more problems than are shown ends
// with the count of the rest, worded for a runtime file, which is not compiled.
func TestLoadRuntimeTooManyProblems(t *testing.T) {
	var src strings.Builder
	src.WriteString("bindings:\n")
	for i := range 150 {
		fmt.Fprintf(&src, "  b%d: {command: [x], timeout: never}\n", i)
	}
	path := filepath.Join(t.TempDir(), RuntimeFile)
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadRuntime(path)
	var ds diag.List
	if !errors.As(err, &ds) || len(ds) != 101 {
		t.Fatalf("err = %v; want 101 diagnostics", err)
	}
	if last := ds[100].Message; !strings.HasSuffix(last, "50 more problems are not shown (from line 102 on); fix these and try again") {
		t.Errorf("the last diagnostic: %q", last)
	}
}
