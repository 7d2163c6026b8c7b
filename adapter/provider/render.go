package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// Part is one piece of the user message, in the input schema's declaration order. A media
// part names its file, which is read while the request is sent, not held.
type Part struct {
	Kind  string      // "text", "image", "audio" or "document"
	Text  string      // text parts: "label: value" lines
	MIME  string      // media parts: the file's media type
	Name  string      // media parts: the file's base name
	Label string      // media parts: the field's label, for messages
	Path  string      // media parts: the file, opened again (engine.OpenRegular) for each send
	Size  int64       // media parts: the file's size when rendered; the request's length counts on it
	file  os.FileInfo // media parts: the file Render opened; each send must open the same one
}

// Render turns an input object into message parts, deterministically: the leaf fields in
// declaration order; string-like values (string, enum, numbers, bools, dates and times) as
// "label: value" lines gathered into one text part until the next artifact; each artifact
// as a line "label: [image]" (or audio, document) followed by a media part naming the
// file. Nested fields are labelled with dotted paths. Strings are written as they are;
// other values as JSON. The artifacts of one input hold at most MaxArtifactBytes: more is
// an error, before the file that crosses the limit is read.
func Render(schema ir.Field, input map[string]any) ([]Part, error) {
	var parts []Part
	budget := int64(MaxArtifactBytes)
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, Part{Kind: "text", Text: strings.TrimSuffix(text.String(), "\n")})
			text.Reset()
		}
	}
	for _, leaf := range schema.Leaves() {
		v := valueAt(input, leaf.Path)
		label := strings.Join(leaf.Path, ".")
		if !ir.IsArtifact(leaf.Field.Type) {
			text.WriteString(label)
			text.WriteString(": ")
			text.WriteString(scalarText(v))
			text.WriteByte('\n')
			continue
		}
		media, err := mediaPart(leaf, v, &budget)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&text, "%s: [%s]\n", label, leaf.Field.Type)
		flush()
		parts = append(parts, media)
	}
	flush()
	return parts, nil
}

// mediaPart is the media part of the artifact leaf whose value (the file's path) is v, its
// size taken from budget.
func mediaPart(leaf ir.Leaf, v any, budget *int64) (Part, error) {
	label := strings.Join(leaf.Path, ".")
	path, _ := v.(string)
	info, head, err := readArtifact(path, label, leaf.Field.Type, budget)
	if err != nil {
		return Part{}, err
	}
	return Part{Kind: leaf.Field.Type, MIME: mediaType(path, head), Name: filepath.Base(path), Label: label, Path: path, Size: info.Size(), file: info}, nil
}

// MaxArtifactBytes bounds the artifact bytes of one request to a provider: 32 MiB, the
// request limit of Anthropic's Messages API and OpenAI's limit for a file input. No
// artifact is held in memory: each is encoded from its file while the request is sent
// (body.go), so a request costs a few buffers whatever its artifacts weigh.
const MaxArtifactBytes = 32 << 20

// sniffBytes is how much of a file mediaType looks at.
const sniffBytes = 512

// readArtifact checks the artifact at path, the absolute path the engine resolved (a
// regular file inside the run's workspace), for the field label of type kind: it returns
// the file's identity and size, the size taken from budget, and its first sniffBytes bytes. A file that is not regular
// (a FIFO put there since the dataset was checked) is refused without blocking; one larger
// than what is left of the budget is refused before it is read.
func readArtifact(path, label, kind string, budget *int64) (os.FileInfo, []byte, error) {
	name := filepath.Base(path)
	f, err := engine.OpenRegular(path)
	if errors.Is(err, engine.ErrNotRegular) {
		return nil, nil, fmt.Errorf("%s %s for %s is not a regular file", kind, name, label)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s for %s: %w", name, label, unwrapPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s for %s: %w", name, label, unwrapPathError(err))
	}
	if size := info.Size(); size > *budget {
		what := fmt.Sprintf("%s %s for %s is %s", kind, name, label, mib(size))
		if left := *budget; left < MaxArtifactBytes {
			what += fmt.Sprintf(", and the input's other artifacts leave %s", mib(left))
		}
		return nil, nil, fmt.Errorf("%s: a request to a provider carries at most %s of artifacts (Anthropic's request limit, OpenAI's file limit)", what, mib(MaxArtifactBytes))
	}
	head := make([]byte, min(info.Size(), sniffBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, nil, fmt.Errorf("reading %s for %s: %w (did it change while the run goes?)", name, label, unwrapPathError(err))
	}
	*budget -= info.Size()
	return info, head, nil
}

// mib writes a size in MiB, for messages.
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func valueAt(v any, path []string) any {
	for _, k := range path {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// mediaTypes are the file types models take, by extension: a fixed table, not the
// operating system's, so rendering is the same on every machine.
var mediaTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".pdf": "application/pdf", ".wav": "audio/wav", ".mp3": "audio/mpeg", ".flac": "audio/flac",
	".ogg": "audio/ogg", ".m4a": "audio/mp4", ".webm": "audio/webm", ".txt": "text/plain",
}

// mediaType names a file's type from its extension, else from its first bytes (head, at
// most sniffBytes of them).
func mediaType(path string, head []byte) string {
	if t, ok := mediaTypes[strings.ToLower(filepath.Ext(path))]; ok {
		return t
	}
	switch {
	case len(head) >= 4 && string(head[:4]) == "%PDF":
		return "application/pdf"
	case len(head) >= 8 && string(head[:8]) == "\x89PNG\r\n\x1a\n":
		return "image/png"
	case len(head) >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff:
		return "image/jpeg"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		return "audio/wav"
	case len(head) >= 3 && string(head[:3]) == "ID3":
		return "audio/mpeg"
	}
	return "application/octet-stream"
}
