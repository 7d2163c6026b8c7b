package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/benchy-eval/benchy/store"
)

// A save is atomic and durable: the bytes go to a temporary file, which is synced, renamed
// over the target, and the target's folder synced, so that a crash leaves the old file or
// the new one, never a part. Temporary files live in the store's folder (tempDir), not
// beside the workspace's files, so a killed save leaves nothing a listing or a person sees;
// the next start removes them. A target on another file system than the store's folder is
// written through a hidden temporary file beside it instead.

// tempDir holds the saves under way.
const tempDir = store.Dir + "/tmp"

// removeStaleTemps removes what killed saves left in tempDir.
func (s *Server) removeStaleTemps() {
	if info, err := s.wsRoot.Lstat(tempDir); err == nil && info.IsDir() {
		if err := s.wsRoot.RemoveAll(tempDir); err != nil {
			s.logf("cannot remove the temporary files of earlier saves: %v", err)
		}
	}
}

// writeAtomic writes src to workspace file p, created mode 0644, atomically and durably;
// it returns the file's version as written. The caller has checked that p may be written
// (writable).
func (s *Server) writeAtomic(p string, src io.Reader) (fs.FileInfo, error) {
	if dir := path.Dir(p); dir != "." {
		if err := s.wsRoot.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	if err := s.wsRoot.MkdirAll(tempDir, 0o755); err != nil {
		return nil, err
	}
	tmp, info, err := s.writeTemp(path.Join(tempDir, randomName()), src)
	if err != nil {
		return nil, err
	}
	defer s.wsRoot.Remove(tmp) // after a rename, nothing there
	err = s.wsRoot.Rename(tmp, p)
	if errors.Is(err, syscall.EXDEV) { // p is on another file system: copy beside it first
		var f *os.File
		if f, err = s.wsRoot.Open(tmp); err != nil {
			return nil, err
		}
		beside, besideInfo, werr := s.writeTemp(path.Join(path.Dir(p), "."+randomName()), f)
		f.Close()
		if werr != nil {
			return nil, werr
		}
		if err = s.wsRoot.Rename(beside, p); err != nil {
			s.wsRoot.Remove(beside)
		}
		info = besideInfo
	}
	if err != nil {
		return nil, err
	}
	return info, s.syncDir(path.Dir(p))
}

// writeTemp creates file name (new) with src's bytes, synced.
func (s *Server) writeTemp(name string, src io.Reader) (string, fs.FileInfo, error) {
	f, err := s.wsRoot.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", nil, err
	}
	_, werr := io.Copy(f, src)
	if werr == nil {
		werr = f.Sync()
	}
	info, serr := f.Stat()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		s.wsRoot.Remove(name)
		return "", nil, err
	}
	return name, info, nil
}

// syncDir makes a rename in workspace folder dir durable.
func (s *Server) syncDir(dir string) error {
	d, err := s.wsRoot.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) { // some file systems cannot sync a folder
		return err
	}
	return nil
}

// randomName is a temporary file's name: 16 random hex digits and .tmp, short whatever the
// target's name (a name of 250 characters and 17 more for the temporary file was past
// the 255 a file name may have).
func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:]) + ".tmp"
}
