package adapter

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/diag"
)

// The keys a runtime file may use, in the order its documentation gives them.
var (
	topKeys     = []string{"bindings", "providers"}
	bindingKeys = []string{"command", "http", "timeout", "requires", "env"}
)

// runtimeParser walks a runtime file's YAML nodes in document order, so that its problems
// come out in the order a reader meets them, all of them, not just the first.
type runtimeParser struct {
	dir   string
	rt    *Runtime
	diags diag.List
}

func (p *runtimeParser) parse(src []byte) {
	file, err := parseYAML(src)
	if err != nil {
		line, col, msg := 1, 1, err.Error()
		var te interface {
			GetToken() *token.Token
			GetMessage() string
		}
		if errors.As(err, &te) {
			line, col = tokenPos(te.GetToken())
			msg = "YAML syntax error: " + te.GetMessage()
		}
		p.diags = append(p.diags, diag.Diagnostic{Phase: diag.PhaseParse, Code: diag.InvalidRuntime,
			Path: []string{}, Message: msg, Line: line, Column: col})
		return
	}
	var body ast.Node
	for _, doc := range file.Docs {
		if isEmpty(doc.Body) {
			continue
		}
		if body != nil {
			p.report(doc.Body, nil, "a runtime file holds exactly one YAML document")
			continue
		}
		body = doc.Body
	}
	if isEmpty(body) {
		return // an empty runtime binds nothing; Factory says what is missing
	}
	entries, ok := p.mapping(body, nil, "a runtime file is a mapping with the keys bindings and providers")
	if !ok {
		return
	}
	for _, e := range entries {
		switch e.key {
		case "bindings":
			p.bindings(e.value)
		case "providers":
			p.providers(e.value)
		default:
			p.unknown(e, nil, topKeys, fmt.Sprintf("unknown key %q; a runtime file has the keys bindings and providers", e.key))
		}
	}
}

func (p *runtimeParser) bindings(n ast.Node) {
	path := []string{"bindings"}
	entries, ok := p.mapping(n, path, "bindings must map AI-system ids to their adapters")
	if !ok {
		return
	}
	for _, e := range entries {
		if e.key == "" {
			p.report(e.keyNode, path, "a binding's name must be a non-empty string: the AI-system's id")
			continue
		}
		if b := p.binding(e); b != nil {
			p.rt.bindings[b.name] = b
		}
	}
}

// binding checks one binding, reporting every problem, and returns it when it has none.
func (p *runtimeParser) binding(e entry) *binding {
	name := e.key
	path := []string{"bindings", name}
	entries, ok := p.mapping(e.value, path, fmt.Sprintf("binding %q must be a mapping with command or http, and optionally timeout", name))
	if !ok {
		return nil
	}
	b := &binding{name: name, dir: p.dir, timeout: DefaultTimeout}
	before := len(p.diags)
	var command, http, env *entry
	unknown := false
	for i := range entries {
		e := &entries[i]
		at := append(path[:2:2], e.key)
		switch e.key {
		case "command":
			command = e
			b.command = p.command(name, e.value, at)
		case "http":
			http = e
			b.url = p.url(fmt.Sprintf("binding %q: http", name), "http://127.0.0.1:9000/invoke", e.value, at)
		case "timeout":
			b.timeout = p.timeout(fmt.Sprintf("binding %q", name), e.value, at)
		case "requires":
			b.requires = p.requires(name, e.value, at)
		case "env":
			env = e
			b.env = p.env(name, e.value, at)
		default:
			unknown = true
			p.unknown(*e, path, bindingKeys, fmt.Sprintf("binding %q: unknown key %q; a binding has the keys command, http, timeout, requires and env", name, e.key))
		}
	}
	switch {
	case command != nil && http != nil:
		p.report(http.keyNode, path, fmt.Sprintf("binding %q has both command and http; give exactly one", name))
	case command == nil && http == nil && !unknown: // an unknown key is likely one of them misspelt
		p.report(e.keyNode, path, fmt.Sprintf("binding %q has neither command nor http; give exactly one", name))
	case http != nil && env != nil:
		p.report(env.keyNode, append(path[:2:2], "env"), fmt.Sprintf("binding %q: env passes variables to a command; an http binding starts no process", name))
	}
	if len(p.diags) > before {
		return nil
	}
	if b.url != "" {
		b.secrets = urlSecrets(b.url)
	}
	return b
}

// env checks the variables a command binding passes to its process: a list of names, whose
// values come from benchy's own environment when it starts the command. A name is never
// echoed in a message, in case a value was written in its place.
func (p *runtimeParser) env(name string, n ast.Node, path []string) []string {
	if !p.plain(n, path) {
		return nil
	}
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		if n != nil {
			p.report(n, path, fmt.Sprintf("binding %q: env must be a list of environment variable names such as [HF_HOME, OPENAI_API_KEY]; their values come from benchy's environment, never from the runtime file", name))
		}
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for i, v := range seq.Values {
		if !p.plain(v, path) {
			continue
		}
		s, isString := v.(*ast.StringNode)
		switch {
		case !isString || !envName.MatchString(s.Value):
			p.report(v, path, fmt.Sprintf("binding %q: env[%d] must be the name of an environment variable (letters, digits and _, not starting with a digit), not a value", name, i))
		case seen[s.Value]:
			p.report(v, path, fmt.Sprintf("binding %q: env lists %s twice", name, s.Value))
		default:
			seen[s.Value] = true
			names = append(names, s.Value)
		}
	}
	return names
}

// requires checks a binding's programs: a mapping of program name (or absolute path of a
// file, such as a library's folder) to the package that installs it, e.g.
// {tesseract: tesseract-ocr}.
func (p *runtimeParser) requires(name string, n ast.Node, path []string) []requirement {
	entries, ok := p.mapping(n, path, fmt.Sprintf("binding %q: requires must be a mapping of program to the package that installs it, such as {tesseract: tesseract-ocr}", name))
	if !ok {
		return nil
	}
	var out []requirement
	for _, e := range entries {
		pkg, ok := scalarText(e.value)
		if e.key == "" || !ok || pkg == "" || (strings.ContainsAny(e.key, "/\\") && !filepath.IsAbs(e.key)) {
			p.report(e.keyNode, append(path, e.key), fmt.Sprintf("binding %q: requires maps a program name (looked up in PATH) or an absolute path to the package that installs it", name))
			continue
		}
		out = append(out, requirement{program: e.key, pkg: pkg})
	}
	return out
}

// command checks an argument list. A plain number or boolean is an argument as written, so
// [sleep, 1] needs no quotes; the list is passed to the program as is, never to a shell.
func (p *runtimeParser) command(name string, n ast.Node, path []string) []string {
	if !p.plain(n, path) {
		return nil
	}
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		p.report(n, path, fmt.Sprintf("binding %q: command must be a list of strings such as [python3, extract.py]; it is not run by a shell", name))
		return nil
	}
	if len(seq.Values) == 0 {
		p.report(n, path, fmt.Sprintf("binding %q: command is empty; name the program to run", name))
		return nil
	}
	args := make([]string, 0, len(seq.Values))
	for i, v := range seq.Values {
		if !p.plain(v, path) {
			continue
		}
		s, ok := scalarText(v)
		if !ok {
			p.report(v, path, fmt.Sprintf("binding %q: command[%d] must be a string", name, i))
			continue
		}
		args = append(args, s)
	}
	if len(args) != len(seq.Values) {
		return nil
	}
	if args[0] == "" {
		p.report(seq.Values[0], path, fmt.Sprintf("binding %q: command[0] is empty; name the program to run", name))
		return nil
	}
	// A program given as a path is found from the runtime file, as its working directory
	// is; a bare name is looked up in PATH.
	if strings.ContainsRune(args[0], '/') || strings.ContainsRune(args[0], filepath.Separator) {
		if !filepath.IsAbs(args[0]) {
			args[0] = filepath.Join(p.dir, args[0])
		}
	}
	return args
}

// url checks an endpoint; what names it in messages ("binding \"a\": http"), example is
// a URL to show. The messages never repeat the URL, which may hold a token.
func (p *runtimeParser) url(what, example string, n ast.Node, path []string) string {
	if !p.plain(n, path) {
		return ""
	}
	s, ok := scalarText(n)
	if !ok || s == "" {
		p.report(n, path, fmt.Sprintf("%s must be a URL such as %s", what, example))
		return ""
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		p.report(n, path, fmt.Sprintf("%s is not a valid URL: %v", what, err))
	case u.Scheme != "http" && u.Scheme != "https":
		p.report(n, path, fmt.Sprintf("%s must be an http:// or https:// URL", what))
	case u.Host == "":
		p.report(n, path, fmt.Sprintf("%s URL has no host", what))
	default:
		return s
	}
	return ""
}

// timeout checks a duration; owner names its binding or provider in messages.
func (p *runtimeParser) timeout(owner string, n ast.Node, path []string) time.Duration {
	if !p.plain(n, path) {
		return 0
	}
	s, ok := scalarText(n)
	switch _, isNum := n.(*ast.IntegerNode); {
	case isNum:
		p.report(n, path, fmt.Sprintf("%s: timeout %s has no unit; write %ss for seconds", owner, s, s))
		return 0
	case !ok:
		p.report(n, path, fmt.Sprintf("%s: timeout must be a duration such as 30s or 2m", owner))
		return 0
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		p.report(n, path, fmt.Sprintf("%s: timeout %q is not a duration; write e.g. 30s or 2m", owner, s))
	case d <= 0:
		p.report(n, path, fmt.Sprintf("%s: timeout must be greater than zero", owner))
	}
	return d
}
