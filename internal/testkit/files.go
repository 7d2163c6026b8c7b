package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles writes each file, named by its slash path under dir, making the folders it
// needs, and returns dir. The files are not executable: a test that writes a program sets
// its mode itself.
func WriteFiles(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
