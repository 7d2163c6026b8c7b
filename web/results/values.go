package results

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/web/ui"
)

// The example view compares values field by field, in the program's declaration order,
// instead of as one-line JSON whose keys each side orders its own way.

// decode reads a JSON value, numbers kept as written (121.0 stays 121.0); nil for none.
func decode(raw json.RawMessage) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	return v
}

// at is the value at path in v, and whether it is there.
func at(v any, path []string) (any, bool) {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// leaf is a field of a schema to show: its path and semantic type ("" when unknown).
type leaf struct {
	path []string
	typ  string
}

// schemaLeaves are the leaves of a schema in declaration order, then the leaves of the
// values that the schema does not have (a prediction's extra fields), in key order.
func schemaLeaves(schema *ir.Field, values ...any) []leaf {
	var out []leaf
	seen := map[string]bool{}
	if schema != nil {
		for _, l := range schema.Leaves() {
			out = append(out, leaf{path: l.Path, typ: l.Field.Type})
			seen[api.DimensionKey(l.Path)] = true
		}
	}
	for _, v := range values {
		for _, p := range valueLeaves(v, nil) {
			if k := api.DimensionKey(p); !seen[k] {
				seen[k] = true
				out = append(out, leaf{path: p})
			}
		}
	}
	return out
}

// valueLeaves are the paths of the non-object values under v, keys sorted.
func valueLeaves(v any, path []string) [][]string {
	m, ok := v.(map[string]any)
	if !ok {
		if path == nil {
			return nil
		}
		return [][]string{path}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out [][]string
	for _, k := range keys {
		out = append(out, valueLeaves(m[k], append(path[:len(path):len(path)], k))...)
	}
	if len(m) == 0 && path != nil {
		out = append(out, path)
	}
	return out
}

// text is a value as the example view shows it: a string as it is, anything else as JSON.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// valueCell shows value v of type typ: text wrapped in full, an image drawn, an audio
// player, a document linked; an artifact the server does not serve says why.
func (p *Page) valueCell(d *api.ExampleDetail, typ string, v any, present bool) app.UI {
	if !present {
		return app.Span().Class("muted missing").Text("missing")
	}
	if v == nil {
		return app.Span().Class("mono muted").Text("null")
	}
	s, isString := v.(string)
	if isString && ir.IsArtifact(typ) {
		return p.artifact(d, typ, s)
	}
	class := "value mono"
	if isString {
		class = "value text"
	}
	if isString && s == "" {
		return app.Span().Class("muted").Text("empty text")
	}
	return app.Div().Class(class).Text(text(v))
}

// artifact shows a file the example references, served by the server under its URL:
// the URL itself, or with a token the blob fetched from it. A document is a download
// link: the server serves it under a sandboxing CSP, where a browser's PDF viewer may
// show nothing inline.
func (p *Page) artifact(d *api.ExampleDetail, typ, path string) app.UI {
	served, ok := d.Artifacts[path]
	name := app.Div().Class("mono small muted artifact-path").Text(path)
	if !ok {
		note := d.ArtifactNotes[path]
		if note == "" {
			note = "the server does not serve this file"
		}
		return app.Div().Class("artifact missing").Body(name, app.Div().Class("notice artifact-note").Text(note))
	}
	src, pending, err := p.artifactSrc(served)
	file := lastPart(path)
	var media app.UI
	switch {
	case pending:
		media = app.Div().Class("muted artifact-loading").Text("loading " + file + "…")
	case err != nil:
		if big, ok := tooBig(err); ok {
			u := app.Window().URL()
			full := u.Scheme + "://" + u.Host + served
			media = app.Div().Class("notice artifact-note too-big").Body(
				app.Div().Text("Not shown: "+big.Error()+". This server wants its token, which a link cannot send; download the file with"),
				app.Pre().Class("artifact-command").Text(`curl -H "Authorization: Bearer $BENCHY_TOKEN" -o `+file+` '`+full+`'`),
				app.A().Class("artifact-url mono small").Href(served).Download(file).Text(full),
			)
			break
		}
		media = app.Div().Class("notice artifact-note").Text("Cannot show " + file + ": " + ui.ErrText(err))
	case typ == ir.TypeImage:
		media = app.A().Href(src).Target("_blank").Body(app.Img().Class("artifact-image").Src(src).Alt(path))
	case typ == ir.TypeAudio:
		media = app.Audio().Class("artifact-audio").Controls(true).Preload("metadata").Src(src)
	default:
		media = app.A().Class("button artifact-link").Href(src).Download(file).Title("Download " + path).Text("Download " + file)
	}
	return app.Div().Class("artifact "+typ).DataSet("path", path).Body(media, name)
}

// lastPart is the file name of a path.
func lastPart(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// fieldScore is the score of the dimension at path, if the example has one.
func fieldScore(fs []api.FieldScore, path []string) (api.FieldScore, bool) {
	for _, f := range fs {
		if slices.Equal(f.Path, path) {
			return f, true
		}
	}
	return api.FieldScore{}, false
}

// weightOf is the weight of the dimension at path in the IR, 0 when it has none.
func weightOf(b *ir.Benchmark, path []string) (float64, bool) {
	if b == nil {
		return 0, false
	}
	for _, d := range b.Scoring.Dimensions {
		if slices.Equal(d.Path, path) {
			return d.Weight, true
		}
	}
	return 0, false
}

// dotted is a path for reading; the schema root is "(value)".
func dotted(path []string) string {
	if len(path) == 0 {
		return "(value)"
	}
	return ui.Dotted(path)
}

// ordered is a JSON object with its keys in the schema's declaration order (nested
// objects too), then the keys the schema does not have, sorted; numbers as written. The
// table's cells show the expected output and the prediction in one order, where each
// side's own order put date first in one and invoice_number in the other. A value that
// is not JSON (clipped) is left as it is.
func ordered(raw json.RawMessage, schema *ir.Field) json.RawMessage {
	v := decode(raw)
	if _, ok := v.(map[string]any); !ok || schema == nil {
		return raw
	}
	var buf bytes.Buffer
	writeOrdered(&buf, v, schema)
	return buf.Bytes()
}

// writeOrdered writes v as JSON, the keys of its objects in schema's order.
func writeOrdered(buf *bytes.Buffer, v any, schema *ir.Field) {
	m, ok := v.(map[string]any)
	if !ok {
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		buf.Truncate(buf.Len() - 1) // Encode's newline
		return
	}
	var keys []string
	children := map[string]*ir.Field{}
	if schema != nil {
		for i := range schema.Fields {
			c := &schema.Fields[i]
			if _, ok := m[c.Name]; ok {
				keys = append(keys, c.Name)
				children[c.Name] = c
			}
		}
	}
	var rest []string
	for k := range m {
		if children[k] == nil {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	buf.WriteByte('{')
	for i, k := range append(keys, rest...) {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeOrdered(buf, k, nil)
		buf.WriteByte(':')
		writeOrdered(buf, m[k], children[k])
	}
	buf.WriteByte('}')
}
