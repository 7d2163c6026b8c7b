package editor

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// applySuggestion is src with the word at line:col (1-based, col in characters) replaced
// by suggestion: what a diagnostic's "did you mean X?" changes. The word is a key or a
// plain value: it ends at a space, ':', ',', '#' or a bracket; a quoted one at its
// closing quote. ok is false when line:col is not in src.
func applySuggestion(src string, line, col int, suggestion string) (string, bool) {
	if line < 1 || col < 1 {
		return src, false
	}
	start := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			return src, false
		}
		start += i + 1
	}
	end := len(src)
	if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	at := start
	for c := 1; c < col; c++ {
		if at >= end {
			return src, false
		}
		_, n := utf8.DecodeRuneInString(src[at:end])
		at += n
	}
	if at >= end {
		return src, false
	}
	stop := at
	if q := src[at]; q == '"' || q == '\'' {
		i := strings.IndexByte(src[at+1:end], q)
		if i < 0 {
			return src, false
		}
		stop = at + 1 + i + 1
		suggestion = string(q) + suggestion + string(q)
	} else {
		for stop < end && !strings.ContainsRune(" \t:,#[]{}\r", rune(src[stop])) {
			stop++
		}
	}
	if stop == at {
		return src, false
	}
	return src[:at] + suggestion + src[stop:], true
}

// onApply applies the suggestion of the clicked diagnostic to the text. It reads the
// diagnostic from the element, which every render updates (go-app keeps a handler's first
// closure).
func (e *Page) onApply(ctx app.Context, ev app.Event) {
	ev.Call("stopPropagation") // not also a click on the diagnostic: the text changes
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("index").String())
	if err != nil || i < 0 || i >= len(e.diags) {
		return
	}
	if src, ok := suggested(e.yaml, e.diags[i]); ok {
		e.setYAML(ctx, src, false)
	}
}

// suggested is src with d's suggestion applied, when d has one and a position.
func suggested(src string, d diag.Diagnostic) (string, bool) {
	if d.Suggestion == "" || d.Line < 1 || d.Column < 1 {
		return src, false
	}
	return applySuggestion(src, d.Line, d.Column, d.Suggestion)
}
