package provider

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/gif" // image.DecodeConfig reads the dimensions of the image types providers take
	_ "image/jpeg"
	_ "image/png"
	"math"
	"strconv"

	"github.com/benchy-eval/benchy/engine"
)

// tokenEstimate is what one request may use, in tokens, before it is sent: Expected is a
// guess of its input tokens (for --estimate's low end and a rate limit's pacing);
// InputBound and OutputBound are upper bounds (for budgets, which must never be passed).
type tokenEstimate struct {
	Expected    int // input tokens, estimated
	InputBound  int // input tokens, at most
	OutputBound int // output tokens, at most
}

// Bound is the tokens the request may use at most, input and output.
func (e tokenEstimate) Bound() int { return e.InputBound + e.OutputBound }

// The bounds' rules, which hold for the byte-level BPE tokenizers of OpenAI's and
// Anthropic's models:
//   - a token is at least one byte of text, so the request's JSON text (every string and
//     key as sent, escapes only ever lengthen it) bounds the tokens of its text; the JSON's
//     syntax and the output schema count too, which providers also put before the model;
//   - each message costs messageOverhead tokens more (its role and separators) and a
//     request replyOverhead (the reply's priming), as OpenAI's counting guide gives;
//   - an image at most imageTokens of its dimensions, the largest of the providers'
//     rules; maxImageTokens when its dimensions cannot be read;
//   - audio and documents at most one token per byte of their encoding as sent (base64 or
//     text);
//   - the output at most the request's max_completion_tokens, max_tokens or
//     max_output_tokens parameter (the largest set, times n choices), else
//     defaultOutputTokens (Anthropic's default max_tokens, which its requests send; an
//     OpenAI request without a limit may answer longer, so that a budget refuses it at
//     setup: OutputUnbounded).
//
// The expected input is the JSON text's bytes / 4 (about four bytes a token in English),
// the overheads, and media at their bounds.
const (
	messageOverhead     = 4
	replyOverhead       = 3
	maxImageTokens      = 3840 // 1536 patches × 2.5, the largest of imageTokens' rules
	defaultOutputTokens = anthropicMaxTokens
)

// estimateTokens estimates one rendered request's tokens without sending it. params are
// ai-system.parameters, where the output limit is. It reads no more of a media file than
// an image's header.
func estimateTokens(body *requestBody, params map[string]any) tokenEstimate {
	var e tokenEstimate
	text, messages := 0, 0
	for _, s := range body.segs {
		if s.art == nil {
			text += len(s.json)
			messages += bytes.Count(s.json, []byte(`"role":`)) + bytes.Count(s.json, []byte(`"system":`))
			continue
		}
		text += len(s.art.prefix)
		n := mediaTokens(s.art)
		e.Expected += n
		e.InputBound += n
	}
	over := messages*messageOverhead + replyOverhead
	e.Expected += (text+3)/4 + over
	e.InputBound += text + over
	e.OutputBound = outputLimit(params)
	return e
}

// mediaTokens bounds the tokens of one artifact as sent.
func mediaTokens(a *artifact) int {
	if a.part.Kind != "image" {
		return int(min(a.length, math.MaxInt32))
	}
	f, fail := openPart(a.part)
	if fail != nil {
		return maxImageTokens
	}
	defer f.Close()
	c, _, err := image.DecodeConfig(f)
	if err != nil || c.Width <= 0 || c.Height <= 0 {
		return maxImageTokens
	}
	return imageTokens(c.Width, c.Height)
}

// imageTokens bounds an image's tokens from its dimensions: the largest of OpenAI's tile
// rule (scaled into 2048×2048, then its short side to 768; 85 + 170 per 512-pixel tile),
// OpenAI's patch rule (32-pixel patches, at most 1536, × 2.5, above every model's
// multiplier) and Anthropic's (width × height / 750 after scaling the long side to 1568).
func imageTokens(w, h int) int {
	fw, fh := float64(w), float64(h)
	if s := 2048 / max(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	if s := 768 / min(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	tiles := 85 + 170*int(math.Ceil(fw/512)*math.Ceil(fh/512))
	patches := min(math.Ceil(float64(w)/32)*math.Ceil(float64(h)/32), 1536)
	aw, ah := float64(w), float64(h)
	if s := 1568 / max(aw, ah); s < 1 {
		aw, ah = aw*s, ah*s
	}
	anthropic := math.Ceil(aw * ah / 750)
	return int(max(float64(tiles), math.Ceil(patches*2.5), anthropic))
}

// outputLimit is the request's output-token limit from ai-system.parameters: the largest
// of max_completion_tokens, max_tokens and max_output_tokens that is set (a provider
// honours one of them; the largest bounds them all), else defaultOutputTokens; times n
// when the parameters ask for n > 1 choices (OpenAI bills each choice's output). Each
// value, and the product, is clamped at engine.MaxBound, so that a huge limit bounds
// without wrapping.
func outputLimit(params map[string]any) int {
	limit, set := 0, false
	for _, k := range outputLimitKeys {
		if n, ok := intParam(params[k]); ok && n >= 0 {
			limit, set = max(limit, n), true
		}
	}
	if !set {
		limit = defaultOutputTokens
	}
	if n, ok := intParam(params["n"]); ok && n > 1 {
		if limit > 0 && n > engine.MaxBound/limit {
			return engine.MaxBound
		}
		limit *= n
	}
	return min(limit, engine.MaxBound)
}

// outputLimitKeys are the parameters that limit a reply's output tokens, as providers
// name them.
var outputLimitKeys = []string{"max_completion_tokens", "max_tokens", "max_output_tokens"}

// intParam reads an integer parameter in any of the shapes YAML and JSON give it, clamped
// at engine.MaxBound (a negative one stays negative: no limit).
func intParam(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return min(n, engine.MaxBound), true
	case int64:
		return int(min(n, engine.MaxBound)), true
	case uint64:
		return int(min(n, engine.MaxBound)), true
	case float64:
		if n != math.Trunc(n) || math.IsNaN(n) {
			return 0, false
		}
		return int(max(min(n, engine.MaxBound), -1)), true
	case json.Number:
		return numberParam(string(n))
	case string:
		return numberParam(n)
	}
	return 0, false
}

// numberParam reads an integer written out, clamped at engine.MaxBound: one too large for
// an int still bounds.
func numberParam(s string) (int, bool) {
	if i, err := strconv.Atoi(s); err == nil {
		return min(i, engine.MaxBound), true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return intParam(f)
	}
	return 0, false
}
