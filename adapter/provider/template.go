package provider

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

// A prompt file is a template when it holds a line ---user--- or the characters {{; any
// other file is the system message as it is, byte for byte, and the input goes in the user
// message as Render writes it. The syntax, which the README's "Models" section documents:
//
//   - The line ---user--- (alone on its line) splits the file: above it the system part,
//     below it the user part. A marker line rather than front matter or {{#system}} blocks
//     because a prompt has exactly these two parts, a line cannot be mistaken for text, and
//     a file without it reads as it did. The line break before the marker and the file's
//     last line break belong to neither part. No marker: the whole file is the system part
//     and the user message is Render's, as without a template.
//   - {{path}} is the value of an input leaf, nested ones by dotted path ({{address.city}});
//     spaces inside the braces are ignored. A string is written as it is, any other value as
//     JSON, as Render writes them.
//   - The placeholder of an artifact leaf (image, audio, document) puts the file's media part
//     at that place of the user message, cutting the text around it into parts; one line
//     break on each side of it goes with it, and a text part left empty or blank is left out
//     (the APIs refuse blank text blocks). The system part takes text only.
//   - {{{{ is a literal {{. A lone }} is text.
//   - A template's line breaks are \n: a CRLF file (a Windows checkout) sends the same request.
//
// Nothing else: no conditions, loops, filters or code, so the request for an example is a
// function of the file and the input alone. A user part need not name every input field:
// what it leaves out the model does not see, which a template may mean (an id, a gold
// hint); it is not an error and no warning is given, since setup has no warning channel.

// userMarker is the line that starts the user part.
const userMarker = "---user---"

// Template is a parsed prompt file.
type Template struct {
	system  []piece // the system part
	user    []piece // the user part; nil without the marker line
	hasUser bool
	static  bool // the system part has no placeholder: systemText is it
	text    string
	// systemCost and userCost are the text the parts write (render_bound.go): a request's
	// size is known from them before it is rendered.
	systemCost, userCost textCost
}

// piece is literal text or, when leaf is set, an input leaf's placeholder.
type piece struct {
	text string
	leaf *ir.Leaf
}

// IsTemplate reports whether a prompt file is a template, by the rule above.
func IsTemplate(prompt string) bool {
	return strings.Contains(prompt, "{{") || markerAt(prompt) >= 0
}

// ParseTemplate parses the prompt file text, named file in diagnostics, against the input
// schema for a provider of kind k: every problem is a setup diagnostic positioned in the
// file (line and column, the column in code points): an unknown or unterminated
// placeholder, one that names an object rather than a leaf, an artifact in the system part
// or of a type the provider cannot take, a second marker line. A file that is not a
// template is (nil, nil).
func ParseTemplate(file, text string, input ir.Field, k Kind) (*Template, diag.List) {
	if !IsTemplate(text) {
		return nil, nil
	}
	p := &parser{file: file, text: text, kind: k, leaves: map[string]*ir.Leaf{}}
	for _, l := range input.Leaves() {
		l := l
		name := strings.Join(l.Path, ".")
		p.leaves[name] = &l
		p.names = append(p.names, name)
	}
	t := &Template{}
	sys, user := len(text), -1
	if at := markerAt(text); at >= 0 {
		sys = trimBreak(text, at)
		user = at + len(userMarker)
		user += lineBreak(text[user:])
		end := trimBreak(text, len(text))
		if end < user {
			end = user
		}
		if again := markerAt(text[user:]); again >= 0 {
			p.fail(user+again, "a second %s line: a prompt file has one system part and one user part", userMarker)
		}
		t.user, t.hasUser = hugArtifacts(p.pieces(user, end, true)), true
		if strings.TrimSpace(text[user:end]) == "" {
			p.fail(at, "the user part below %s is empty: write the user message there, or remove the line to send the input as name: value lines", userMarker)
		}
	}
	t.system = p.pieces(0, sys, false)
	if len(p.errs) > 0 {
		return nil, p.diagnostics()
	}
	if !slices.ContainsFunc(t.system, func(x piece) bool { return x.leaf != nil }) {
		t.static = true
		for _, x := range t.system {
			t.text += x.text
		}
	}
	t.systemCost, t.userCost = partCost(t.system), partCost(t.user)
	return t, nil
}

// hugArtifacts gives each artifact placeholder of the user part the line break on each side
// of it: the text parts around a media part are separate blocks, with no line between.
func hugArtifacts(ps []piece) []piece {
	for i := range ps {
		if ps[i].leaf == nil || !ir.IsArtifact(ps[i].leaf.Field.Type) {
			continue
		}
		if i > 0 && ps[i-1].leaf == nil {
			ps[i-1].text = strings.TrimSuffix(ps[i-1].text, "\n")
		}
		if i+1 < len(ps) && ps[i+1].leaf == nil {
			ps[i+1].text = strings.TrimPrefix(ps[i+1].text, "\n")
		}
	}
	return ps
}

// markerAt is the offset of the first marker line of text, or -1.
func markerAt(text string) int {
	for at := 0; at < len(text); {
		i := strings.Index(text[at:], userMarker)
		if i < 0 {
			return -1
		}
		i += at
		end := i + len(userMarker)
		if (i == 0 || text[i-1] == '\n') && (end == len(text) || lineBreak(text[end:]) > 0) {
			return i
		}
		at = end
	}
	return -1
}

// lineBreak is the length of the line break s starts with: 2 for \r\n, 1 for \n, else 0.
func lineBreak(s string) int {
	switch {
	case strings.HasPrefix(s, "\r\n"):
		return 2
	case strings.HasPrefix(s, "\n"):
		return 1
	}
	return 0
}

// trimBreak is end less the one line break that text[:end] ends with.
func trimBreak(text string, end int) int {
	switch {
	case strings.HasSuffix(text[:end], "\r\n"):
		return end - 2
	case strings.HasSuffix(text[:end], "\n"):
		return end - 1
	}
	return end
}

// parser collects the pieces of a template's parts and its problems. A problem is written
// down with its offset, and placed (line, column) only if it is among the first
// yamlnode.MaxDiagnostics shown: a prompt of a million unterminated {{ costs time linear
// in its length, as a benchmark file with as many problems does.
type parser struct {
	file    string
	text    string
	kind    Kind
	leaves  map[string]*ir.Leaf
	names   []string  // the leaves' dotted names, in declaration order
	errs    []problem // at most yamlnode.MaxCollected
	dropped int       // the problems past those, only counted
}

// problem is a diagnostic of the prompt file before it is placed: at is its byte offset.
type problem struct {
	at              int
	msg, suggestion string
}

// pieces scans text[start:end], one part; user says which.
func (p *parser) pieces(start, end int, user bool) []piece {
	var out []piece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, piece{text: strings.ReplaceAll(lit.String(), "\r\n", "\n")})
			lit.Reset()
		}
	}
	s := p.text[:end]
	for i := start; i < end; {
		j := strings.Index(s[i:], "{{")
		if j < 0 {
			lit.WriteString(s[i:])
			break
		}
		j += i
		lit.WriteString(s[i:j])
		if strings.HasPrefix(s[j:], "{{{{") {
			lit.WriteString("{{")
			i = j + 4
			continue
		}
		close, lineEnd := closing(s, j+2)
		if close < 0 {
			p.fail(j, "an unterminated placeholder: {{ without }} on its line (write {{{{ for a literal {{)")
			i = lineEnd
			continue
		}
		if leaf := p.placeholder(j, s[j+2:close], user); leaf != nil {
			flush()
			out = append(out, piece{leaf: leaf})
		}
		i = close + 2
	}
	flush()
	return out
}

// closing is the offset of the }} that closes a placeholder whose name starts at from, or
// -1 and the offset of the line's end when the line (or s) ends first. It reads no further
// than either, so that a line of many placeholders is read once, not once each.
func closing(s string, from int) (close, lineEnd int) {
	for k := from; k < len(s); k++ {
		switch {
		case s[k] == '\n':
			return -1, k
		case s[k] == '}' && k+1 < len(s) && s[k+1] == '}':
			return k, -1
		}
	}
	return -1, len(s)
}

// placeholder checks the name between the braces of the placeholder at offset at: the leaf
// it names, or nil with a diagnostic.
func (p *parser) placeholder(at int, inner string, user bool) *ir.Leaf {
	name := strings.TrimSpace(inner)
	if name == "" {
		p.fail(at, "an empty placeholder {{}} (write {{{{ for a literal {{)")
		return nil
	}
	leaf, ok := p.leaves[name]
	if !ok {
		var fields []string
		for _, n := range p.names {
			if strings.HasPrefix(n, name+".") {
				fields = append(fields, n)
			}
		}
		if len(fields) > 0 {
			p.fail(at, "{{%s}} is an object of the input: name one of its fields (%s)", name, strings.Join(fields, ", "))
			return nil
		}
		if p.full() {
			return nil
		}
		msg := "{{" + name + "}} is not a field of the input"
		if len(p.names) > 0 {
			msg += "; its fields are " + strings.Join(p.names, ", ")
		}
		p.errs = append(p.errs, problem{at: at, msg: msg, suggestion: suggest.Closest(name, p.names)})
		return nil
	}
	kind := leaf.Field.Type
	if !ir.IsArtifact(kind) {
		return leaf
	}
	if !user {
		p.fail(at, "{{%s}} is an artifact (%s): the system part takes text only; place it below the %s line", name, kind, userMarker)
		return nil
	}
	if why := cannotTake(p.kind, kind); why != "" {
		p.fail(at, "{{%s}} is an artifact (%s): %s", name, kind, why)
		return nil
	}
	return leaf
}

// cannotTake says why a provider of kind k cannot take an artifact of type t, or "". It
// follows the bodies' own checks (openai.go, anthropic.go) at the level of the type; the
// media types of a given file (OpenAI's wav or mp3 audio, Anthropic's PDF or text
// documents) are still checked per example.
func cannotTake(k Kind, t string) string {
	if k == KindAnthropic && t == ir.TypeAudio {
		return "the Anthropic Messages API takes no audio input"
	}
	return ""
}

func (p *parser) fail(at int, format string, args ...any) {
	if !p.full() {
		p.errs = append(p.errs, problem{at: at, msg: fmt.Sprintf(format, args...)})
	}
}

// full reports that yamlnode.MaxCollected problems are written down, counting the one
// that is not.
func (p *parser) full() bool {
	if len(p.errs) < yamlnode.MaxCollected {
		return false
	}
	p.dropped++
	return true
}

// diagnostics are the problems as setup diagnostics, sorted by position and cut as a
// benchmark file's are: the first yamlnode.MaxDiagnostics, and one saying how many more.
// Lines and columns (in code points) are counted in one pass over the file.
func (p *parser) diagnostics() diag.List {
	slices.SortStableFunc(p.errs, func(a, b problem) int { return a.at - b.at })
	shown := p.errs[:min(len(p.errs), yamlnode.MaxDiagnostics+1)]
	ds := make(diag.List, 0, len(shown))
	line, col, from := 1, 1, 0 // the position of offset from
	for _, e := range shown {
		seg := p.text[from:e.at]
		if k := strings.LastIndexByte(seg, '\n'); k >= 0 {
			line += strings.Count(seg, "\n")
			col = 1 + utf8.RuneCountInString(seg[k+1:])
		} else {
			col += utf8.RuneCountInString(seg)
		}
		from = e.at
		ds = append(ds, diag.Diagnostic{File: p.file, Phase: engine.PhaseSetup, Code: diag.InvalidValue, Path: []string{"ai-system", "prompt"},
			Message: e.msg, Line: line, Column: col, Suggestion: e.suggestion})
	}
	ds = yamlnode.Limit(ds.Sort(), len(p.errs)-len(shown)+p.dropped, "prompt file")
	if last := &ds[len(ds)-1]; last.File == "" {
		last.File = p.file // Limit's summary, of this file
	}
	return ds
}
