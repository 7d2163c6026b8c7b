package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
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
// (writable); check, when not nil, is asked about the bytes written, in their temporary
// file, before the rename: its error leaves nothing written.
func (s *Server) writeAtomic(p string, src io.Reader, check func(*os.File) error) (fs.FileInfo, error) {
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
	if check != nil {
		if err := s.checkTemp(tmp, check); err != nil {
			return nil, err
		}
	}
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

// checkTemp asks check about temporary file tmp, opened for reading.
func (s *Server) checkTemp(tmp string, check func(*os.File) error) error {
	f, err := s.wsRoot.Open(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	return check(f)
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

// A save of a benchmark is optimistic: the client names the version it replaces (If-Match:
// the etag GET answered) or says the file is new (If-None-Match: *), and the server checks
// that against the file as it is while no other save of that path can run between the
// check and the rename, so that two tabs saving over one version cannot both succeed.

// etagOf is the strong entity tag of a file's bytes: "sha256:<hex>", quoted as the ETag
// header has it. It names the content, not its modification time, so a save of the same
// bytes, or a copy, keeps the tag.
func etagOf(src []byte) string {
	return `"` + engine.SHA256(src) + `"`
}

// saveLocks serialises the saves of each file: by absolute path, so that two servers of one
// process on one workspace (tests do that) share them too.
var saveLocks pathLocks

// pathLocks holds a mutex per path while some save of it runs or waits, and none after.
type pathLocks struct {
	mu sync.Mutex
	m  map[string]*pathLock
}

type pathLock struct {
	sync.Mutex
	users int // the saves holding it or waiting for it
}

// lock waits until no other save of p runs and returns what ends this one's.
func (l *pathLocks) lock(p string) (unlock func()) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*pathLock{}
	}
	e := l.m[p]
	if e == nil {
		e = &pathLock{}
		l.m[p] = e
	}
	e.users++
	l.mu.Unlock()
	e.Lock()
	return func() {
		e.Unlock()
		l.mu.Lock()
		if e.users--; e.users == 0 {
			delete(l.m, p)
		}
		l.mu.Unlock()
	}
}

// matchesTag reports whether a header's list of entity tags (If-Match, If-None-Match)
// names etag, or is "*" and some version exists. Tags compare strongly: a weak tag
// (W/"…") never matches, as RFC 9110 has for If-Match.
func matchesTag(list, etag string) bool {
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if etag != "" && (t == "*" || t == etag) {
			return true
		}
	}
	return false
}

// checkPrecondition checks a save of p's If-Match and If-None-Match against the file as it
// is, current (nil when there is none): nil when the save may go on; 428 when it would
// replace a file without naming a version; 412 edit_conflict, with the file's text and
// etag, when the version named is not the file's, or a create finds a file. A new file
// may be saved without a precondition: there is nothing to lose.
func checkPrecondition(h http.Header, p string, current []byte) *apiError {
	etag := ""
	if current != nil {
		etag = etagOf(current)
	}
	ifMatch, ifNone := h.Get("If-Match"), h.Get("If-None-Match")
	conflict := func(format string, args ...any) *apiError {
		e := refuse(http.StatusPreconditionFailed, api.EditConflict, format, args...)
		e.body = api.EditConflictError{Error: api.Error{Error: api.ErrorDetail{Code: e.code, Message: e.message}}, YAML: string(current), ETag: etag}
		return e
	}
	switch {
	case ifMatch != "" && current == nil:
		return conflict("%s does not exist any more: save with If-None-Match: * to create it", p)
	case ifMatch != "" && !matchesTag(ifMatch, etag):
		return conflict("%s changed since that version was read: the answer has the file as it is; save with If-Match: %s to overwrite it", p, etag)
	case ifMatch == "" && ifNone != "" && matchesTag(ifNone, etag):
		return conflict("%s exists already: If-None-Match: * saves only a new file; the answer has the file as it is; save with If-Match: %s to overwrite it", p, etag)
	case ifMatch == "" && ifNone == "" && current != nil:
		return refuse(http.StatusPreconditionRequired, api.PreconditionRequired, "%s exists: a save over it names the version it replaces (If-Match: the etag GET %s answered) or, to create a file only, sends If-None-Match: *", p, api.BenchmarkPath(p))
	}
	return nil
}
