package provider

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ExtractJSON finds the JSON object a model's text reply holds: the whole text, a fenced
// ```json block, or the first complete object after leading prose (a reasoning preamble). It
// never repairs: a reply with no complete JSON object gives false. Numbers stay
// json.Number, so ints and floats keep their written form.
func ExtractJSON(text string) (any, bool) {
	if v, ok := decodeObject(strings.TrimSpace(text)); ok {
		return v, true
	}
	if i := strings.Index(text, "```"); i >= 0 {
		rest := text[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{}") {
			rest = rest[nl+1:] // the fence's language tag
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			if v, ok := decodeObject(strings.TrimSpace(rest[:j])); ok {
				return v, true
			}
		}
	}
	for i := strings.IndexByte(text, '{'); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		dec.UseNumber()
		var v map[string]any
		if err := dec.Decode(&v); err == nil {
			return v, true
		}
		next := strings.IndexByte(text[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil, false
}

// decodeObject decodes text that is exactly one JSON object.
func decodeObject(text string) (any, bool) {
	if !strings.HasPrefix(text, "{") {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if strings.TrimSpace(text[dec.InputOffset():]) != "" {
		return nil, false
	}
	return v, true
}

// decodeJSON decodes a JSON value keeping numbers as json.Number.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}
