package provider

import (
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// quickReply reads a chat completion of the usual shape in one strict pass (the engine's
// own decoder, which checks RFC 8259's rules as it parses), where fullReply parses the body
// twice: once into oaReply, once to check it. ok is false for anything else — a body that
// is not strict JSON, a member of another type or spelt in another case (encoding/json
// matches keys without regard to case), content parts of an odd shape — which fullReply
// then reads as it always has, so that both give the same answer to every body.
func (o openAI) quickReply(body []byte) (out any, usage *engine.Usage, f *engine.Failure, ok bool) {
	v, err := engine.DecodeJSON(body)
	top, isObj := v.(map[string]any)
	if err != nil || !isObj {
		return nil, nil, nil, false
	}
	usage, ok = o.quickUsage(top)
	if !ok {
		return nil, nil, nil, false
	}
	raw, has := top["choices"]
	choices, isList := raw.([]any)
	if !has || !isList || len(choices) == 0 || anyKeyFold(top, "choices") {
		return nil, nil, nil, false
	}
	// encoding/json decodes every choice, and refuses the body for any of them of the wrong
	// shape: each is checked so, the first read.
	for _, c := range choices {
		if _, _, _, ok := quickChoice(c); !ok {
			return nil, nil, nil, false
		}
	}
	msg, finish, refusal, _ := quickChoice(choices[0])
	if refusal != "" {
		return nil, usage, engine.InvalidOutput(refusal, "the model refused to answer"), true
	}
	content, cok := quickContent(msg)
	if !cok {
		return nil, nil, nil, false
	}
	switch finish {
	case "length":
		return nil, usage, engine.InvalidOutput(content, "the reply was cut off at the token limit"), true
	case "content_filter":
		return nil, usage, engine.InvalidOutput(content, "the provider's content filter stopped the reply"), true
	}
	out, strict, found := ExtractJSON(content)
	if !found {
		return nil, usage, engine.InvalidOutput(content, "the reply holds no JSON object"), true
	}
	if strict != nil {
		return nil, usage, engine.InvalidOutput(out, "the reply's JSON object is not strict JSON (RFC 8259): %v; it is not scored", strict), true
	}
	return out, usage, nil, true
}

// quickChoice is one choice's message, finish_reason and refusal, false when it is not of
// the shape oaReply reads (the message absent or null is left to fullReply).
func quickChoice(c any) (msg map[string]any, finish, refusal string, ok bool) {
	choice, isObj := c.(map[string]any)
	if !isObj || anyKeyFold(choice, "message") {
		return nil, "", "", false
	}
	msg, isObj = choice["message"].(map[string]any)
	finish, fok := optString(choice, "finish_reason")
	if !isObj || !fok {
		return nil, "", "", false
	}
	refusal, rok := optString(msg, "refusal")
	if !rok || anyKeyFold(msg, "content") {
		return nil, "", "", false
	}
	return msg, finish, refusal, true
}

// quickUsage reads the usage member as fullReply does, or says it cannot.
func (o openAI) quickUsage(top map[string]any) (*engine.Usage, bool) {
	raw, has := top["usage"]
	if !has || raw == nil {
		return unreported(), has || !anyKeyFold(top, "usage")
	}
	u, isObj := raw.(map[string]any)
	if !isObj {
		return nil, false
	}
	in, iok := optInt(u, "prompt_tokens")
	out, ook := optInt(u, "completion_tokens")
	if !iok || !ook || in == nil || out == nil {
		return nil, false // missing or not a whole number: fullReply says what it is
	}
	usage := unreported()
	if reported(in, out) {
		i, o2 := clampUsage(*in), clampUsage(*out)
		usage = &engine.Usage{InputTokens: i, OutputTokens: o2}
		cachedIn := 0
		if d, has := u["prompt_tokens_details"]; has && d != nil {
			dm, isObj := d.(map[string]any)
			if !isObj {
				return nil, false
			}
			c, cok := optInt(dm, "cached_tokens")
			if !cok {
				return nil, false
			}
			if c != nil {
				cachedIn = min(max(*c, 0), i)
			}
		}
		setCost(usage, o.price, tokens{input: i - cachedIn, cachedInput: cachedIn, output: o2})
	}
	return usage, true
}

// quickContent is the message's content as oaContent reads it: absent or null, a string, or
// text parts; false for any other shape.
func quickContent(msg map[string]any) (string, bool) {
	raw, has := msg["content"]
	if !has {
		return "", !anyKeyFold(msg, "content")
	}
	switch c := raw.(type) {
	case nil:
		return "", true
	case string:
		return c, true
	case []any:
		var b strings.Builder
		for _, p := range c {
			part, isObj := p.(map[string]any)
			typ, tok := optString(part, "type")
			text, xok := optString(part, "text")
			if !isObj || !tok || !xok {
				return "", false
			}
			if typ == "text" {
				b.WriteString(text)
			}
		}
		return b.String(), true
	}
	return "", false
}

// optString is member key of m when it is a string or absent (""), false when it is of
// another type or another key spells it in another case.
func optString(m map[string]any, key string) (string, bool) {
	v, has := m[key]
	if !has {
		return "", !anyKeyFold(m, key)
	}
	if v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

// optInt is member key of m as an int (nil when absent or null), false when it is not a
// whole number encoding/json would put in an int, or another key spells it in another case.
func optInt(m map[string]any, key string) (*int, bool) {
	v, has := m[key]
	if !has {
		return nil, !anyKeyFold(m, key)
	}
	if v == nil {
		return nil, true
	}
	n, ok := v.(interface{ String() string }) // json.Number
	if !ok {
		return nil, false
	}
	i, err := strconv.Atoi(n.String())
	if err != nil {
		return nil, false
	}
	return &i, true
}

// anyKeyFold says m has a key equal to key but for case other than key itself: one that
// encoding/json would read into the member, which quickReply leaves to fullReply.
func anyKeyFold(m map[string]any, key string) bool {
	for k := range m {
		if k != key && strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}
