package server

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace"
)

// MaxUpload bounds a file sent to PUT /api/files as raw bytes; one sent as {"base64"} JSON
// is bounded by Config.MaxBody, since JSON is decoded in memory.
const MaxUpload = 64 << 20

// uploadTimeout is how long an upload's body may take to arrive; other request bodies
// have the server's ReadTimeout.
const uploadTimeout = 10 * time.Minute

// The API writes data, never code. A file the server writes may be read by the programs
// the bindings run, so it takes only the kinds of file a benchmark is made of, each by its
// extension: benchmarks (.yaml, through PUT /api/benchmarks, which compiles them), datasets
// (.jsonl), prompt text (.md, .txt) and the media the engine sends to models (the table of
// adapter/provider's mediaTypes). Never a script, a library, a .pth or anything without an
// extension; never a hidden file or one in a hidden folder or node_modules; never the
// runtime file; never a file a binding's command names (or one under a folder it names);
// never over an executable file, a link or anything else than a regular file; never through
// a folder that is a link. A written file is mode 0644.

// uploadExtensions are the extensions PUT /api/files writes.
var uploadExtensions = []string{
	".jsonl",      // datasets
	".md", ".txt", // prompts, text artifacts
	".png", ".jpg", ".jpeg", ".gif", ".webp", ".pdf", // images and documents
	".wav", ".mp3", ".flac", ".ogg", ".m4a", ".webm", // audio
}

// writable checks that workspace path p may be written with one of the extensions exts:
// nil, or the answer that refuses it.
func (s *Server) writable(p string, exts []string) *apiError {
	parts := strings.Split(p, "/")
	if !fs.ValidPath(p) || p == "." || slices.ContainsFunc(parts, skipDir) || engine.IsPrivate(p) {
		return refuse(http.StatusBadRequest, api.BadPath, "%s: a path the API writes is relative to the workspace, without .., hidden files or folders, node_modules or the runtime file", p)
	}
	if ext := strings.ToLower(path.Ext(p)); !slices.Contains(exts, ext) {
		return refuse(http.StatusBadRequest, api.NotBenchmarkData,
			"%s: the API writes only benchmark content, here %s files (benchmarks go through PUT /api/benchmarks); never code, configuration or a file without an extension", p, strings.Join(exts, " "))
	}
	for i := 1; i < len(parts); i++ { // the folders on the way must be folders, not links
		info, err := s.wsRoot.Lstat(path.Join(parts[:i]...))
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil || !info.IsDir() {
			return refuse(http.StatusBadRequest, api.BadPath, "%s: %s is not a folder of the workspace (a link, or a file)", p, path.Join(parts[:i]...))
		}
	}
	named, err := s.commandNames(p)
	if err != nil {
		return refuse(http.StatusForbidden, api.Unchecked, "%s: the server cannot tell whether a binding runs it: %v", p, err) // commandNames' own sentences
	}
	if named != "" {
		return refuse(http.StatusForbidden, api.RunsProgram, "%s: a binding's command in %s names it; the API does not write what a binding runs", p, named)
	}
	info, err := s.wsRoot.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return refuse(http.StatusForbidden, api.Unwritable, "cannot save %s inside the workspace", p)
	case !info.Mode().IsRegular():
		return refuse(http.StatusForbidden, api.NotRegular, "%s is not a regular file (a link, a folder or a FIFO): it is not replaced", p)
	case info.Mode().Perm()&0o111 != 0:
		return refuse(http.StatusForbidden, api.Executable, "%s is executable: the API does not replace programs", p)
	}
	return nil
}

// commandNames returns the runtime file (a workspace path) whose commands name p, or a
// folder above it; "" when none does. Every runtime file of the workspace counts
// (runtimeFiles): `benchy run sub/b.yaml` binds through sub/benchy.runtime.yaml, whose
// commands may name a file anywhere in the workspace (../shared/helper.txt). A workspace
// too large to walk, or a runtime file that cannot be read whole, is an error: what it
// names cannot be known, so nothing is written.
func (s *Server) commandNames(p string) (string, error) {
	files, err := s.runtimeFiles()
	if err != nil {
		return "", err
	}
	for _, rt := range files {
		src, _, err := s.readRegular(rt, maxRuntimeRead)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the walk
		}
		if err != nil {
			return "", fmt.Errorf("%s cannot be read whole (%d bytes at most) to see what its commands name", rt, maxRuntimeRead)
		}
		dir := path.Dir(rt)
		for _, word := range ws.CommandWords(src) {
			named, ok := s.workspacePath(dir, word)
			if ok && (named == p || strings.HasPrefix(p, named+"/") || globNames(named, p)) {
				return rt, nil
			}
		}
	}
	return "", nil
}

// globNames reports whether named, a workspace path with glob characters (cat conf/k*.txt,
// which a command's shell expands), matches workspace path p or a folder above it.
func globNames(named, p string) bool {
	if !strings.ContainsAny(named, "*?[") {
		return false
	}
	for q := p; q != "." && q != "/"; q = path.Dir(q) {
		if ok, _ := path.Match(named, q); ok {
			return true
		}
	}
	return false
}

// maxRuntimeRead bounds a runtime file read for the names of its commands.
const maxRuntimeRead = 1 << 20

// workspacePath resolves a word of a runtime file in folder dir as a workspace path. A word
// is cleaned as an absolute path first (a relative one joined to dir in the workspace), so
// that one going up and back in (../ws/run.txt, /ws/../ws/run.txt, //ws/run.txt) names the
// file it reaches. The workspace root itself does not count (a command naming "." would
// keep every upload out).
func (s *Server) workspacePath(dir, word string) (string, bool) {
	abs := word
	if !strings.HasPrefix(word, "/") {
		abs = path.Join(filepath.ToSlash(s.dir), dir, word)
	}
	abs = path.Clean(abs)
	for _, d := range s.dirs {
		if rel, ok := strings.CutPrefix(abs, path.Clean(filepath.ToSlash(d))+"/"); ok {
			return rel, fs.ValidPath(rel)
		}
	}
	return "", false
}

// putFile stores a dataset or asset file in the workspace: PUT /api/files/{path} with the
// raw bytes (application/octet-stream, streamed to disk, up to MaxUpload) or with
// {"base64": "..."} (application/json, up to Config.MaxBody). At most maxUploads raw
// uploads stream at once, each holding a connection and a temporary file.
func (s *Server) putFile(w http.ResponseWriter, r *http.Request) error {
	raw := strings.HasPrefix(r.Header.Get("Content-Type"), "application/octet-stream")
	if raw { // before anything else: a flood of uploads is shed at the cost of a header
		select {
		case s.uploads <- struct{}{}:
			defer func() { <-s.uploads }()
		default:
			w.Header().Set("Connection", "close") // nothing waits for the body it did not read
			busy := refuse(http.StatusServiceUnavailable, api.Busy, "%d uploads are streaming, the most this server takes at once; retry in a few seconds", cap(s.uploads))
			busy.retry = "5"
			return busy
		}
	}
	p := r.PathValue("path")
	if refusal := s.writable(p, uploadExtensions); refusal != nil {
		return refusal
	}
	var body io.Reader
	if raw {
		if r.ContentLength > MaxUpload {
			return refuse(http.StatusRequestEntityTooLarge, api.TooLarge, "the upload is larger than %d bytes", MaxUpload)
		}
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(uploadTimeout))
		body = r.Body
	} else {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		var req struct {
			Base64 string `json:"base64"`
		}
		if err := readJSON(r, &req); err != nil {
			return err
		}
		data, err := base64.StdEncoding.DecodeString(req.Base64)
		var at base64.CorruptInputError
		if errors.As(err, &at) {
			return refuse(http.StatusBadRequest, api.BadRequest, "base64 does not decode: it goes wrong at byte %d", int64(at))
		}
		if err != nil {
			return refuse(http.StatusBadRequest, api.BadRequest, "base64 does not decode")
		}
		body = bytes.NewReader(data)
	}
	in := &bodyReader{r: body}
	info, err := s.writeAtomic(p, in, func(f *os.File) error { return uploadText(p, f) })
	if refusal := (*apiError)(nil); errors.As(err, &refusal) {
		return refusal
	}
	if err != nil {
		return s.writeFailed(p, in.err, err)
	}
	return writeJSON(w, http.StatusOK, api.Saved{Path: p, Size: info.Size()})
}

// uploadText refuses an upload to workspace path p, written to f, whose text is a runtime
// file (runtimeText: bindings or providers at the top of its first MiB), whatever its
// extension: benchy run --runtime FILE reads a runtime file of any name and runs its
// commands, so the API writes none, as a benchmark save of one is refused. Media and
// text no YAML reader takes are told by their first 512 bytes; other text costs a read
// and a compile of its first MiB at most, never the whole upload.
func uploadText(p string, f *os.File) error {
	if runtimeText(f) {
		return refuse(http.StatusForbidden, api.NotBenchmarkData, "%s would be a runtime file (bindings, providers or executors at its top): the API writes no runtime file, by any name or extension (benchy run --runtime FILE reads one of any name)", p)
	}
	return nil
}

// bodyReader keeps the error of reading a request body, to tell it from one of writing.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// writeFailed is the answer to a failed save of workspace path p: the request body's
// fault when reading it failed (readErr), else the server's.
func (s *Server) writeFailed(p string, readErr, err error) *apiError {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(readErr, &tooBig):
		return refuse(http.StatusRequestEntityTooLarge, api.TooLarge, "the upload is larger than %d bytes", tooBig.Limit)
	case readErr != nil:
		return refuse(http.StatusBadRequest, api.BadRequest, "the request body did not arrive whole (cut short, or too slow)")
	}
	s.logf("cannot save %s: %v", p, err)
	return refuse(http.StatusForbidden, api.Unwritable, "cannot save %s inside the workspace", p)
}
