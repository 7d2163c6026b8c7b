package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
// other values as JSON.
func Render(schema ir.Field, input map[string]any) ([]Part, error) {
	var parts []Part
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
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading %s for %s: %w", filepath.Base(path), label, err)
		}
		fmt.Fprintf(&text, "%s: [%s]\n", label, leaf.Field.Type)
		flush()
		parts = append(parts, Part{Kind: leaf.Field.Type, MIME: mediaType(path, data), Data: data, Name: filepath.Base(path)})
	}
	flush()
	return parts, nil
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
