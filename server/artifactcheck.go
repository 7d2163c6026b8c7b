package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// A dataset row can be uploaded through the API and can name any file as an image, so
// the artifact endpoint must not become a way to read the workspace: beyond the engine's
// confinement (inside the folder, no hidden name, links resolved) the server serves a file
// only when it is media of the field's type by its name and by the name it resolves to
// (artifactTypes), has one name (a hard link may be .benchy/benchy.db, .git/config or a
// file outside the workspace by another name), lies in no hidden folder, is no file a
// binding's command names (commandNames, as uploads are refused: api.RunsProgram), and
// is no runtime file under another name (runtimeLike, as saved benchmarks are refused).

// artifactType is the content type a file named name is served with as an artifact of
// field type kind, or why it is not served.
func artifactType(kind, name string) (string, *refusal) {
	ext := strings.ToLower(path.Ext(filepath.ToSlash(name)))
	if ct, ok := artifactTypes[kind][ext]; ok {
		return ct, nil
	}
	exts := make([]string, 0, len(artifactTypes[kind]))
	for e := range artifactTypes[kind] {
		exts = append(exts, e)
	}
	slices.Sort(exts)
	what := "a file without an extension"
	if ext != "" {
		what = "a " + clipName(ext) + " file"
	}
	return "", &refusal{http.StatusBadRequest, api.BadPath, fmt.Sprintf("is %s: an %s artifact is served only as %s", what, kind, strings.Join(exts, " "))}
}

// checkArtifact checks the file f, opened by engine.Paths.Open from the absolute path
// asked, against what the server adds to the engine's confinement; nil when it is served.
// Every check is on the opened file: its link count from fstat, and its name found again
// (the path asked, links resolved) only when that name is the opened file itself.
func (s *Server) checkArtifact(f *os.File, kind, asked string) *refusal {
	bad := func(why string) *refusal { return &refusal{http.StatusBadRequest, api.BadPath, why} }
	info, err := f.Stat()
	if err != nil {
		return bad("cannot be read")
	}
	if engine.ManyLinks(info) {
		return bad("is a hard-linked file, which is not served: it may be another file's name (a hidden or private one, or one outside the workspace)")
	}
	real, err := filepath.EvalSymlinks(asked)
	if err != nil {
		return bad("changed while it was opened")
	}
	if li, err := os.Lstat(real); err != nil || !os.SameFile(li, info) {
		return bad("changed while it was opened")
	}
	if _, no := artifactType(kind, real); no != nil {
		return bad("leads to a file of another kind (" + no.why + ")")
	}
	rel, ok := s.workspaceRel(real)
	if !ok {
		return bad("lies outside the workspace")
	}
	if part := engine.PrivatePart(rel); part != "" {
		return bad(fmt.Sprintf("is hidden or in a hidden folder (%s), which is never served", clipName(part)))
	}
	named, err := s.commandNames(rel)
	switch {
	case err != nil:
		return bad("cannot be told from a file a binding runs (" + s.relative(err.Error()) + "), so it is not served")
	case named != "":
		return bad("is a file a binding's command in " + named + " names, which is never served")
	}
	if runtimeText(f) {
		return bad("is a runtime file under another name (bindings, providers or executors at its top), which is never served")
	}
	return nil
}

// workspaceRel is the absolute path p as a slash path relative to the workspace.
func (s *Server) workspaceRel(p string) (string, bool) {
	for _, d := range s.dirs {
		if rel, err := filepath.Rel(d, p); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// runtimeText reports whether the file f is a runtime file by its text, the rule the
// artifacts and the uploads (PUT /api/files) follow: its first 512 bytes are UTF-8 without
// a control character YAML excludes, and its first yamlnode.MaxSize bytes (the most a
// runtime file has), cut at the last line end when the file is longer, compiled as a
// benchmark have bindings or providers at their top (adapter.RuntimeText, the rule
// PUT /api/benchmarks and a model's prompt file follow). A longer file is judged by that
// start, as if cut there.
func runtimeText(f *os.File) bool {
	// A runtime file is YAML text: media, and text no YAML reader takes (a NUL, an escape
	// character), are told by their first bytes, without reading (and compiling) a MiB of
	// each image or audio file at every range request a player makes, or of each upload.
	head := make([]byte, 512)
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return true // unread: not known to be safe
	}
	if head = head[:n]; n == cap(head) { // the last character may be cut by the head's end
		i := n - 1
		for i > 0 && i > n-utf8.UTFMax && !utf8.RuneStart(head[i]) {
			i--
		}
		if !utf8.FullRune(head[i:]) {
			head = head[:i]
		}
	}
	if !utf8.Valid(head) || bytes.ContainsFunc(head, notYAML) {
		return false
	}
	info, err := f.Stat()
	if err != nil {
		return true // unread: not known to be safe
	}
	// As much as the file has, up to one byte past the most a runtime file has: a short
	// prompt or data file costs its size, not a MiB.
	buf := make([]byte, min(max(info.Size(), 0), yamlnode.MaxSize)+1)
	n, err = f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return true // unread: not known to be safe
	}
	return adapter.RuntimeText(buf[:n])
}

// notYAML reports the characters no YAML text holds anywhere (YAML 1.2 §5.1: C0 controls
// but tab and line breaks, and DEL; the parser refuses them where they stand), so that a
// text with one in its first bytes is no runtime file, whatever follows.
func notYAML(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}
