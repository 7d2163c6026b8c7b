package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxKeptPrediction bounds what a result keeps of an invalid output's prediction, as its
// JSON text: 1 MiB. An invalid output is shown, never scored, and a reply may be 64 MiB
// (a model's text with no JSON object, a command's line that does not fit the program):
// kept whole, one such result cost the server hundreds of MB each time it was served. A
// longer prediction is kept as its JSON text cut at a character's start, marked with its
// length (cutMark), a string a merge of shards takes at the engine's word.
const MaxKeptPrediction = 1 << 20

// cutMark ends a cut prediction: " … (cut: N bytes)", N its whole JSON text's length.
const cutMark = " … (cut: %d bytes)"

// keptPrediction is invalid output v as a result keeps it: v when its JSON text is at most
// MaxKeptPrediction bytes, else that text cut and marked.
func keptPrediction(v any) any {
	enc, err := json.Marshal(v)
	if err != nil || len(enc) <= MaxKeptPrediction {
		return v
	}
	mark := fmt.Sprintf(cutMark, len(enc))
	cut := MaxKeptPrediction - len(mark) - 8 // room for the escapes the string's JSON adds
	for cut > 0 && !utf8.RuneStart(enc[cut]) {
		cut--
	}
	return strings.ToValidUTF8(string(enc[:cut]), "") + mark
}

// CutPrediction reports whether prediction p is one keptPrediction cut: a string of at
// most MaxKeptPrediction bytes ending in its mark, of a length past MaxKeptPrediction.
func CutPrediction(p any) bool {
	s, ok := p.(string)
	if !ok || len(s) > MaxKeptPrediction || !strings.HasSuffix(s, " bytes)") {
		return false
	}
	i := strings.LastIndex(s, " … (cut: ")
	if i < 0 {
		return false
	}
	n, err := strconv.Atoi(s[i+len(" … (cut: ") : len(s)-len(" bytes)")])
	return err == nil && n > MaxKeptPrediction
}

// keptSize is the length of invalid output p's JSON text as a result line holds it.
func keptSize(p any) int {
	if raw, ok := p.(json.RawMessage); ok {
		return len(raw)
	}
	enc, err := json.Marshal(p)
	if err != nil {
		return 0
	}
	return len(enc)
}
