package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/shard"
)

// maxFindFiles bounds the benchmark files a merge without --benchmark compiles while it
// looks for the shards' benchmark (findShardBenchmark).
const maxFindFiles = 10_000

// findShardBenchmark finds the benchmark file the shards of set ran, for a merge not given
// --benchmark: the one benchmark file of the workspaces of roots (--into-store's, the
// shards' folder's, the working directory's) whose IR, compiled as it now is, has the
// manifests' IR hash. The benchmark path a manifest records is never read: a shard's
// manifest is another machine's word, and a path in it could name any file. Benchmark
// files are found as the server lists them (YAML, regular, no hidden folder, no runtime
// file), each compiled at most once, at most maxFindFiles of them.
func findShardBenchmark(set *shard.Set, roots ...string) (string, error) {
	m := set.Any()
	if m == nil {
		return "", fmt.Errorf("no shard of %s has a manifest to find the benchmark by: pass --benchmark FILE", set.Dir)
	}
	want := m.IRHash
	var seen []string
	var found []string
	files := 0
	for _, r := range roots {
		ws, ok := workspace.Find(r)
		if !ok || slices.Contains(seen, ws) {
			continue
		}
		seen = append(seen, ws)
		err := filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil // an unreadable corner is skipped
			case d.IsDir():
				if p != ws && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
					return fs.SkipDir
				}
				return nil
			case !d.Type().IsRegular() || !isYAMLName(d.Name()) || strings.EqualFold(d.Name(), adapter.RuntimeFile):
				return nil
			}
			if files++; files > maxFindFiles {
				return errTooManyFiles
			}
			if irHashOf(p) == want && !slices.Contains(found, p) {
				found = append(found, p)
			}
			return nil
		})
		if errors.Is(err, errTooManyFiles) {
			break
		}
	}
	switch {
	case len(found) == 1:
		return relToWD(found[0]), nil
	case len(found) > 1:
		for i := range found {
			found[i] = relToWD(found[i])
		}
		return "", fmt.Errorf("%d benchmark files have the shards' IR hash (%s): pass --benchmark FILE to say which one they ran", len(found), strings.Join(found, ", "))
	case len(seen) == 0:
		return "", fmt.Errorf("the shards' folder is in no workspace to find their benchmark in: pass --benchmark FILE, the benchmark file they ran")
	}
	return "", fmt.Errorf("no benchmark file of %s has the shards' IR hash %s (it was changed since, or lies elsewhere): pass --benchmark FILE, the benchmark file they ran", strings.Join(seen, ", "), want)
}

var errTooManyFiles = errors.New("too many files")

func isYAMLName(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// irHashOf is the IR hash of benchmark file p as it compiles now, or "" when it does not
// (too large, not a benchmark, not readable).
func irHashOf(p string) string {
	f, err := engine.OpenRegular(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, yamlnode.MaxSize+1))
	if err != nil || len(src) > yamlnode.MaxSize {
		return ""
	}
	_, hash, ds := compiler.CompileCanonical(src)
	if len(ds) > 0 {
		return ""
	}
	return hash
}

// relToWD is p relative to the working directory when it lies below it, as a user would
// type it again; else p.
func relToWD(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}
