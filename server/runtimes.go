package server

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// Every runtime file of the workspace counts: `benchy run sub/b.yaml` binds through
// sub/benchy.runtime.yaml, whose commands run in sub/ and may name any file of the
// workspace (../shared/helper.txt). So the API writes no file that any of them names, and
// a run reads none of them as data, by any name or hard link. They are found by walking
// the workspace, as the benchmark listing does: hidden folders and node_modules aside (the
// API writes nothing there), links not followed, at most maxWalkEntries entries.

// Bounds of the walk for runtime files.
const (
	maxWalkEntries  = 100_000 // files and folders looked at
	maxRuntimeFiles = 64      // runtime files kept: each is compared with every file a run reads
)

// errWorkspaceTooLarge is runtimeFiles' error when the walk stopped at a bound: what it
// found is not all there is.
var errWorkspaceTooLarge = errors.New("the workspace has more files or runtime files than the server checks")

// runtimeFiles returns the workspace paths of the runtime files of the workspace, the
// workspace's own first when it has one. Past a bound it returns those found with
// errWorkspaceTooLarge.
func (s *Server) runtimeFiles() ([]string, error) {
	var found []string
	seen := 0
	err := fs.WalkDir(s.wsRoot.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner is skipped, as the listing skips it
		}
		if seen++; seen > maxWalkEntries {
			return errWorkspaceTooLarge
		}
		if d.IsDir() {
			if skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() != RuntimeFile || !d.Type().IsRegular() {
			return nil
		}
		if len(found) == maxRuntimeFiles {
			return errWorkspaceTooLarge
		}
		found = append(found, p)
		return nil
	})
	return found, err
}

// maxHiddenPrivate bounds the hidden files of the workspace's top folder kept private.
const maxHiddenPrivate = 16

// privateFiles are the absolute paths of the files a run never reads as data, through a
// hard link either (engine.Paths.Private): the workspace's runtime files, and the hidden
// files of its top folder (.env, say), which are refused by name already but not as a hard
// link. A walk stopped at its bound gives those it found (each is also refused by name,
// and a symbolic link by its target's name); the server's log says so.
func (s *Server) privateFiles() []string {
	files, err := s.runtimeFiles()
	if err != nil {
		s.logf("looking for runtime files to keep private: %v; the %d found are", err, len(files))
	}
	out := []string{filepath.Join(s.dir, RuntimeFile)} // one written after the walk, too
	for _, f := range files {
		if f != RuntimeFile {
			out = append(out, filepath.Join(s.dir, filepath.FromSlash(f)))
		}
	}
	entries, _ := fs.ReadDir(s.wsRoot.FS(), ".")
	hidden := 0
	for _, e := range entries {
		if hidden < maxHiddenPrivate && strings.HasPrefix(e.Name(), ".") && e.Type().IsRegular() {
			out = append(out, filepath.Join(s.dir, e.Name()))
			hidden++
		}
	}
	return out
}
