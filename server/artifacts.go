package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// An example's artifacts (its images, audio and documents) are served by the value its
// row or prediction has, and only that: GET /api/runs/{id}/artifacts/{index}/{path} looks
// the path up among the artifact leaves of example index (ir.IsArtifact) and opens the
// file that value names as the engine would, through engine.Paths.Open (symbolic links
// resolved, the file opened checked to be the one resolved, inside the workspace, never a
// hidden file or a runtime file). A path no leaf of that example has is not found,
// whatever file it names: another example's image, another run's, .env.
//
// Input and expected artifacts resolve against the dataset file's folder, as the engine
// resolves them (engine/dataset.go). Produced artifacts (the prediction's) are served only
// for a valid result, whose artifacts the engine checked (outputArtifacts: a regular file
// in the benchmark's folder tree or the temporary directory), and only from the
// benchmark's folder tree: the temporary directory is shared with the machine's other
// programs and users, so a file there is not served.
//
// Nothing served runs script: the content type comes from a fixed table of media that do
// not, by the field's type (artifactTypes: SVG and HTML are in none), every answer has a
// sandboxing CSP, and nosniff (Handler). And nothing served is the workspace's own: a file
// outside the field type's table (a .json, .yaml, .sh), a hidden one, a hard link, a file
// a binding's command names or a runtime file under another name is refused
// (artifactcheck.go).

// artifactTypes are the media served, by the field's type and then by extension: the
// types a browser draws, plays or shows as text, never one that runs script. A file of
// any other extension is not served at all (400 bad_path): a dataset row can name any
// file, and a .json, .yaml or .sh of the workspace is no example's image. .webm is among
// the sounds as the engine sends it to models (adapter/provider's mediaTypes).
var artifactTypes = map[string]map[string]string{
	ir.TypeImage: {
		".png":  "image/png",
		".jpg":  "image/jpeg",
		".jpeg": "image/jpeg",
		".gif":  "image/gif",
		".webp": "image/webp",
		".bmp":  "image/bmp",
	},
	ir.TypeAudio: {
		".wav":  "audio/wav",
		".mp3":  "audio/mpeg",
		".ogg":  "audio/ogg",
		".oga":  "audio/ogg",
		".flac": "audio/flac",
		".m4a":  "audio/mp4",
		".webm": "audio/webm",
	},
	ir.TypeDocument: {
		".pdf": "application/pdf",
		".txt": "text/plain; charset=utf-8",
		".md":  "text/plain; charset=utf-8",
	},
}

// artifactCSP is on every answer of the artifact endpoint: a document opened from it has
// no script, no plugin, no form, and fetches nothing.
const artifactCSP = "sandbox; default-src 'none'"

// artifactRef is one artifact value an example references.
type artifactRef struct {
	value string   // as written
	kind  string   // the field's type: ir.TypeImage, TypeAudio or TypeDocument
	side  string   // input, expected or prediction
	path  []string // the field's path inside its side
}

// artifactRefs are the artifact values of an example's input, expected output and
// prediction (each nil when unknown), in the program's declaration order. A leaf whose
// value is not a string is left out: the engine refused it.
func artifactRefs(b *ir.Benchmark, input, expected json.RawMessage, prediction any) []artifactRef {
	var out []artifactRef
	add := func(side string, schema ir.Field, v any) {
		if v == nil {
			return
		}
		for _, l := range schema.Leaves() {
			if !ir.IsArtifact(l.Field.Type) {
				continue
			}
			if s, ok := leafValue(v, l.Path).(string); ok {
				out = append(out, artifactRef{value: s, kind: l.Field.Type, side: side, path: l.Path})
			}
		}
	}
	add("input", b.Program.Input, decodeAny(input))
	add("expected", b.Program.Output, decodeAny(expected))
	add("prediction", b.Program.Output, prediction)
	return out
}

// decodeAny is raw decoded, nil when it is not JSON (or clipped to a string: no leaf).
func decodeAny(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return v
}

// leafValue follows path through nested objects; nil where it leads nowhere.
func leafValue(v any, p []string) any {
	for _, k := range p {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// artifactTarget is an example whose artifacts are asked for: its run, IR, result status
// and the references its row and prediction make.
type artifactTarget struct {
	run   store.Run
	b     *ir.Benchmark
	valid bool
	refs  []artifactRef
}

// refusal is why an artifact is not served, as an answer: its status, code and sentence.
type refusal struct {
	status int
	code   api.Code
	why    string
}

// openArtifact opens the file of ref, or says why it is not served: the engine's
// confinement first (engine.Paths.Open: inside the folder, links resolved, not hidden, the
// opened file the resolved one), then what the server adds (checkArtifact).
func (s *Server) openArtifact(t artifactTarget, ref artifactRef) (*os.File, *refusal) {
	v := ref.value
	if v == "" || strings.ContainsRune(v, 0) {
		return nil, &refusal{http.StatusBadRequest, api.BadPath, "is not a file's path"}
	}
	if _, no := artifactType(ref.kind, v); no != nil {
		return nil, no // decided by the name alone: nothing is opened
	}
	var dir string
	paths := engine.Paths{Workspace: s.dir} // hard links and runtime files: checkArtifact
	if ref.side == "prediction" {
		if !t.valid {
			return nil, &refusal{http.StatusNotFound, api.NotFound, "is a produced artifact of a result that is not valid: the engine did not check it, so it is not served"}
		}
		// The engine takes a produced artifact relative to the benchmark's folder, or
		// absolute, inside that folder's tree or the temporary directory; only the first
		// is served.
		dir = s.benchmarkDir(t.run.Benchmark)
		paths.Workspace = dir
	} else {
		if filepath.IsAbs(filepath.FromSlash(v)) || strings.HasPrefix(v, "/") || filepath.VolumeName(v) != "" {
			return nil, &refusal{http.StatusBadRequest, api.BadPath, "is not a path relative to the dataset file"}
		}
		var err error
		if dir, err = s.datasetDir(t.run, t.b); err != nil {
			return nil, &refusal{http.StatusNotFound, api.NotFound, "cannot be found: the dataset's folder cannot be resolved"}
		}
	}
	f, err := paths.Open(dir, v)
	var pe *engine.PathError
	switch {
	case errors.As(err, &pe) && pe.Kind == engine.PathMissing:
		return nil, &refusal{http.StatusNotFound, api.NotFound, pe.Reason}
	case errors.As(err, &pe) && pe.Kind == engine.PathOutside && ref.side == "prediction":
		return nil, &refusal{http.StatusBadRequest, api.BadPath, "lies outside the benchmark's folder: the server serves produced artifacts only from there"}
	case errors.As(err, &pe):
		return nil, &refusal{http.StatusBadRequest, api.BadPath, s.relative(pe.Reason)}
	case err != nil:
		return nil, &refusal{http.StatusBadRequest, api.BadPath, "cannot be read"}
	}
	asked := filepath.FromSlash(v)
	if !filepath.IsAbs(asked) {
		asked = filepath.Join(dir, asked)
	}
	if no := s.checkArtifact(f, ref.kind, asked); no != nil {
		f.Close()
		return nil, no
	}
	return f, nil
}

// datasetDir is the folder of run's dataset file, absolute, links resolved: what its
// artifacts are relative to (as engine.openDataset takes it).
func (s *Server) datasetDir(run store.Run, b *ir.Benchmark) (string, error) {
	name := filepath.FromSlash(b.Data.Path)
	p := name
	if !filepath.IsAbs(name) {
		p = filepath.Join(s.benchmarkDir(run.Benchmark), name)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Dir(real), nil
}

// serveArtifact is GET /api/runs/{id}/artifacts/{index}/{path...}.
func (s *Server) serveArtifact(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Security-Policy", artifactCSP) // on errors too
	id := r.PathValue("id")
	index, err := strconv.Atoi(r.PathValue("index"))
	if err != nil || index < 0 {
		return refuse(http.StatusBadRequest, api.BadRequest, "the example index must be an integer of at least 0")
	}
	asked := r.PathValue("path")
	ex, err := s.exampleOf(r.Context(), id, index, nil)
	if err != nil {
		return err
	}
	t, note := ex.target(), ex.note
	var ref *artifactRef
	for i := range t.refs {
		if sameArtifact(t.refs[i].value, asked) {
			ref = &t.refs[i]
			break
		}
	}
	if ref == nil {
		msg := fmt.Sprintf("example %d of run %s references no artifact %q", index, t.run.ID, clipName(asked))
		if note != "" {
			msg += " (" + note + ")"
		}
		return refuse(http.StatusNotFound, api.NotFound, "%s", msg)
	}
	f, no := s.openArtifact(t, *ref)
	if no != nil {
		return refuse(no.status, no.code, "%s %s %q %s", ref.side, api.DimensionKey(ref.path), clipName(ref.value), no.why)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return internalError(err)
	}
	name := path.Base(filepath.ToSlash(ref.value))
	ct, _ := artifactType(ref.kind, name) // openArtifact checked it
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": name}))
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "private, no-cache")
	if strings.Count(r.Header.Get("Range"), ",") >= maxRanges {
		r.Header.Del("Range") // the whole file, not a multipart answer larger than it
	}
	http.ServeContent(w, r, "", info.ModTime(), f) // Range, If-Modified-Since; the type is set
	return nil
}

// sameArtifact reports whether the path asked names the value v: the same path once
// cleaned ("./a.png" is "a.png").
func sameArtifact(v, asked string) bool {
	return asked != "" && v != "" && path.Clean(filepath.ToSlash(v)) == path.Clean(asked)
}

// maxRanges is the most ranges an artifact's Range header is answered with: a player asks
// for one; 1,000 two-byte ranges made a multipart answer 12 times the header's size.
const maxRanges = 16

// clipName is a path as a message quotes it: 200 bytes at most.
func clipName(p string) string {
	if len(p) > 200 {
		return p[:200] + "…"
	}
	return p
}
