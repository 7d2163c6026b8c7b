package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// ExtractJSON finds the JSON object a model's text reply holds: the whole text, a fenced
// ```json block, or the first complete object after leading prose (a reasoning preamble). It
// never repairs: a reply with no complete JSON object gives ok false. Numbers stay
// json.Number, so ints and floats keep their written form. An object that breaks RFC
// 8259's rules (a duplicate key, a lone surrogate escape: engine.DecodeJSON) is found but
// comes with strict set, to be shown as an invalid output, never scored.
func ExtractJSON(text string) (v any, strict error, ok bool) {
	if v, strict, ok := decodeObject(strings.TrimSpace(text)); ok {
		return v, strict, true
	}
	if i := strings.Index(text, "```"); i >= 0 {
		rest := text[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{}") {
			rest = rest[nl+1:] // the fence's language tag
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			if v, strict, ok := decodeObject(strings.TrimSpace(rest[:j])); ok {
				return v, strict, true
			}
		}
	}
	for i := strings.IndexByte(text, '{'); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage // the object's own bytes, as written
		if err := dec.Decode(&raw); err == nil {
			if v, strict, ok := decodeObject(string(raw)); ok {
				return v, strict, true
			}
		}
		next := strings.IndexByte(text[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil, nil, false
}

// decodeObject decodes text that is exactly one JSON object.
func decodeObject(text string) (v any, strict error, ok bool) {
	if !strings.HasPrefix(text, "{") {
		return nil, nil, false
	}
	v, err := engine.DecodeJSON([]byte(text))
	var se *engine.StrictError
	if err != nil && !errors.As(err, &se) {
		return nil, nil, false
	}
	if _, isObject := v.(map[string]any); !isObject {
		return nil, nil, false
	}
	if se != nil {
		return v, se, true
	}
	return v, nil, true
}

// strictReply checks a provider's whole reply body against RFC 8259's rules: encoding/json
// would silently repair invalid UTF-8 and lone surrogates in it, and keep the last of
// duplicate keys (in an Anthropic tool's input, say). Nil when the body is strict or not
// JSON at all (which decoding reports).
func strictReply(body []byte) error {
	var se *engine.StrictError
	if _, err := engine.DecodeJSON(body); errors.As(err, &se) {
		return se
	}
	return nil
}

// decodeKeepingNumbers decodes a JSON value into v, numbers as json.Number; unlike
// engine.DecodeJSON it does not check strictness.
func decodeKeepingNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}
