package runtimefile

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// The keys a runtime file may use, in the order its documentation gives them.
var (
	topKeys     = []string{"bindings", "providers", "executors"}
	bindingKeys = []string{"command", "http", "timeout", "requires", "env"}
	envName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// parser walks a runtime file's nodes in document order, so that its problems come out in
// the order a reader meets them, all of them, not just the first.
type parser struct {
	f       *File
	diags   diag.List
	dropped int // diagnostics past yamlnode.MaxCollected, not written down
}

func (p *parser) top(root *yamlnode.Node) {
	pairs, ok := p.mapping(root, nil, "a runtime file is a mapping with the keys bindings, providers and executors")
	if !ok {
		return
	}
	for _, e := range pairs {
		switch e.Key {
		case "bindings":
			p.bindings(e.Value)
		case "providers":
			p.providers(e.Value)
		case "executors":
			p.executors(e.Value)
		default:
			p.unknown(e, nil, topKeys, fmt.Sprintf("unknown key %q; a runtime file has the keys bindings, providers and executors", e.Key))
		}
	}
}

func (p *parser) bindings(n *yamlnode.Node) {
	path := []string{"bindings"}
	pairs, ok := p.mapping(n, path, "bindings must map AI-system ids to their adapters")
	if !ok {
		return
	}
	for _, e := range pairs {
		if e.Key == "" {
			p.report(e.Pos(), path, "a binding's name must be a non-empty string: the AI-system's id")
			continue
		}
		if b, ok := p.binding(e); ok {
			p.f.Bindings = append(p.f.Bindings, b)
		}
	}
}

// binding checks one binding, reporting every problem, and returns it when it has none.
func (p *parser) binding(e yamlnode.Pair) (Binding, bool) {
	name := e.Key
	path := []string{"bindings", name}
	pairs, ok := p.mapping(e.Value, path, fmt.Sprintf("binding %q must be a mapping with command or http, and optionally timeout", name))
	if !ok {
		return Binding{}, false
	}
	b := Binding{Name: name, Timeout: DefaultTimeout}
	before := p.count()
	var command, http, env *yamlnode.Pair
	unknown := false
	for i := range pairs {
		e := &pairs[i]
		at := append(path[:2:2], e.Key)
		switch e.Key {
		case "command":
			command = e
			b.Command = p.command(name, e.Value, at)
		case "http":
			http = e
			b.URL = p.url(fmt.Sprintf("binding %q: http", name), "http://127.0.0.1:9000/invoke", e.Value, at)
		case "timeout":
			b.Timeout = p.timeout(fmt.Sprintf("binding %q", name), e.Value, at)
		case "requires":
			b.Requires = p.requires(name, e.Value, at)
		case "env":
			env = e
			b.Env = p.env(name, e.Value, at)
		default:
			unknown = true
			p.unknown(*e, path, bindingKeys, fmt.Sprintf("binding %q: unknown key %q; a binding has the keys command, http, timeout, requires and env", name, e.Key))
		}
	}
	switch {
	case command != nil && http != nil:
		p.report(http.Pos(), path, fmt.Sprintf("binding %q has both command and http; give exactly one", name))
	case command == nil && http == nil && !unknown && !e.Value.Partial: // an unknown key is likely one of them misspelt
		p.report(e.Pos(), path, fmt.Sprintf("binding %q has neither command nor http; give exactly one", name))
	case http != nil && env != nil:
		p.report(env.Pos(), append(path[:2:2], "env"), fmt.Sprintf("binding %q: env passes variables to a command; an http binding starts no process", name))
	}
	return b, p.count() == before
}

// env checks the variables a command binding passes to its process: a list of names, whose
// values come from benchy's own environment when it starts the command. A name is never
// echoed in a message, in case a value was written in its place.
func (p *parser) env(name string, n *yamlnode.Node, path []string) []string {
	switch n.Kind {
	case yamlnode.Bad, yamlnode.Null:
		return nil
	case yamlnode.Seq:
	default:
		p.report(n.Pos(), path, fmt.Sprintf("binding %q: env must be a list of environment variable names such as [HF_HOME, OPENAI_API_KEY]; their values come from benchy's environment, never from the runtime file", name))
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for i, v := range n.Items {
		switch {
		case v.Kind == yamlnode.Bad:
		case v.Kind != yamlnode.String || !envName.MatchString(v.Text):
			p.report(v.Pos(), path, fmt.Sprintf("binding %q: env[%d] must be the name of an environment variable (letters, digits and _, not starting with a digit), not a value", name, i))
		case seen[v.Text]:
			p.report(v.Pos(), path, fmt.Sprintf("binding %q: env lists %s twice", name, v.Text))
		default:
			seen[v.Text] = true
			names = append(names, v.Text)
		}
	}
	return names
}

// requires checks a binding's programs: a mapping of program name (or absolute path of a
// file, such as a library's folder) to the package that installs it, e.g.
// {tesseract: tesseract-ocr}.
func (p *parser) requires(name string, n *yamlnode.Node, path []string) []Requirement {
	pairs, ok := p.mapping(n, path, fmt.Sprintf("binding %q: requires must be a mapping of program to the package that installs it, such as {tesseract: tesseract-ocr}", name))
	if !ok {
		return nil
	}
	var out []Requirement
	for _, e := range pairs {
		pkg, ok := scalarText(e.Value)
		if e.Key == "" || !ok || pkg == "" || (strings.ContainsAny(e.Key, "/\\") && !filepath.IsAbs(e.Key)) {
			p.report(e.Pos(), append(path, e.Key), fmt.Sprintf("binding %q: requires maps a program name (looked up in PATH) or an absolute path to the package that installs it", name))
			continue
		}
		out = append(out, Requirement{Program: e.Key, Package: pkg})
	}
	return out
}

// command checks an argument list. A plain number or boolean is an argument as written, so
// [sleep, 1] needs no quotes; the list is passed to the program as is, never to a shell.
func (p *parser) command(name string, n *yamlnode.Node, path []string) []string {
	switch {
	case n.Kind == yamlnode.Bad:
		return nil
	case n.Kind != yamlnode.Seq:
		p.report(n.Pos(), path, fmt.Sprintf("binding %q: command must be a list of strings such as [python3, extract.py]; it is not run by a shell", name))
		return nil
	case len(n.Items) == 0:
		p.report(n.Pos(), path, fmt.Sprintf("binding %q: command is empty; name the program to run", name))
		return nil
	}
	args := make([]string, 0, len(n.Items))
	for i, v := range n.Items {
		if v.Kind == yamlnode.Bad {
			continue
		}
		s, ok := scalarText(v)
		if !ok {
			p.report(v.Pos(), path, fmt.Sprintf("binding %q: command[%d] must be a string", name, i))
			continue
		}
		args = append(args, s)
	}
	if len(args) != len(n.Items) {
		return nil
	}
	if args[0] == "" {
		p.report(n.Items[0].Pos(), path, fmt.Sprintf("binding %q: command[0] is empty; name the program to run", name))
		return nil
	}
	return args
}

// url checks an endpoint; what names it in messages ("binding \"a\": http"), example is
// a URL to show. The messages never repeat the URL, which may hold a token.
func (p *parser) url(what, example string, n *yamlnode.Node, path []string) string {
	if n.Kind == yamlnode.Bad {
		return ""
	}
	s, ok := scalarText(n)
	if !ok || s == "" {
		p.report(n.Pos(), path, fmt.Sprintf("%s must be a URL such as %s", what, example))
		return ""
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		p.report(n.Pos(), path, fmt.Sprintf("%s is not a valid URL: %v", what, err))
	case u.Scheme != "http" && u.Scheme != "https":
		p.report(n.Pos(), path, fmt.Sprintf("%s must be an http:// or https:// URL", what))
	case u.Host == "":
		p.report(n.Pos(), path, fmt.Sprintf("%s URL has no host", what))
	default:
		return s
	}
	return ""
}

// timeout checks a duration; owner names its binding or provider in messages.
func (p *parser) timeout(owner string, n *yamlnode.Node, path []string) time.Duration {
	s, ok := scalarText(n)
	switch {
	case n.Kind == yamlnode.Bad:
		return 0
	case n.Kind == yamlnode.Int:
		p.report(n.Pos(), path, fmt.Sprintf("%s: timeout %s has no unit; write %ss for seconds", owner, s, s))
		return 0
	case !ok:
		p.report(n.Pos(), path, fmt.Sprintf("%s: timeout must be a duration such as 30s or 2m", owner))
		return 0
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		p.report(n.Pos(), path, fmt.Sprintf("%s: timeout %q is not a duration; write e.g. 30s or 2m", owner, s))
	case d <= 0:
		p.report(n.Pos(), path, fmt.Sprintf("%s: timeout must be greater than zero", owner))
	}
	return d
}
