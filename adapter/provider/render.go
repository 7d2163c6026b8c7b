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

// Part is one piece of the user message, in the input schema's declaration order.
type Part struct {
	Kind string // "text", "image", "audio" or "document"
	Text string // text parts: "label: value" lines
	MIME string // media parts: the file's media type
	Data []byte // media parts: the file's bytes
	Name string // media parts: the file's base name
}

// Render turns an input object into message parts, deterministically: the leaf fields in
// declaration order; string-like values (string, enum, numbers, bools, dates and times) as
// "label: value" lines gathered into one text part until the next artifact; each artifact
// as a line "label: [image]" (or audio, document) followed by a media part with the file's
// bytes. Nested fields are labelled with dotted paths. Strings are written as they are;
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
			fmt.Fprintf(&text, "%s: %s\n", label, scalarText(v))
			continue
		}
		path, _ := v.(string)
		data, err := readArtifact(path, label, leaf.Field.Type, &budget)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&text, "%s: [%s]\n", label, leaf.Field.Type)
		flush()
		parts = append(parts, Part{Kind: leaf.Field.Type, MIME: mediaType(path, data), Data: data, Name: filepath.Base(path)})
	}
	flush()
	return parts, nil
}

// MaxArtifactBytes bounds the artifact bytes of one request to a provider: 32 MiB, the
// request limit of Anthropic's Messages API and OpenAI's limit for a file input. Each
// artifact is held in memory, base64-encoded, in the request (about 8 times its size at
// the peak), so the bound is also what one request may cost in memory.
const MaxArtifactBytes = 32 << 20

// readArtifact reads the artifact at path, the absolute path the engine resolved (a
// regular file inside the run's workspace), for the field label of type kind, taking its
// size from budget. A file that is not regular (a FIFO put there since the dataset was
// checked) is refused without blocking; one larger than what is left of the budget is
// refused before it is read.
func readArtifact(path, label, kind string, budget *int64) ([]byte, error) {
	name := filepath.Base(path)
	f, err := engine.OpenRegular(path)
	if errors.Is(err, engine.ErrNotRegular) {
		return nil, fmt.Errorf("%s %s for %s is not a regular file", kind, name, label)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s for %s: %w", name, label, unwrapPathError(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading %s for %s: %w", name, label, unwrapPathError(err))
	}
	if size := info.Size(); size > *budget {
		what := fmt.Sprintf("%s %s for %s is %s", kind, name, label, mib(size))
		if left := *budget; left < MaxArtifactBytes {
			what += fmt.Sprintf(", and the input's other artifacts leave %s", mib(left))
		}
		return nil, fmt.Errorf("%s: a request to a provider carries at most %s of artifacts (Anthropic's request limit, OpenAI's file limit)", what, mib(MaxArtifactBytes))
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading %s for %s: %w (did it change while the run goes?)", name, label, unwrapPathError(err))
	}
	*budget -= int64(len(data))
	return data, nil
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

// mediaType names a file's type from its extension, else from its first bytes.
func mediaType(path string, data []byte) string {
	if t, ok := mediaTypes[strings.ToLower(filepath.Ext(path))]; ok {
		return t
	}
	switch {
	case len(data) >= 4 && string(data[:4]) == "%PDF":
		return "application/pdf"
	case len(data) >= 8 && string(data[:8]) == "\x89PNG\r\n\x1a\n":
		return "image/png"
	case len(data) >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff:
		return "image/jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE":
		return "audio/wav"
	case len(data) >= 3 && string(data[:3]) == "ID3":
		return "audio/mpeg"
	}
	return "application/octet-stream"
}
