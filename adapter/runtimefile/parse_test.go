package runtimefile

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
)

// exampleRuntime is the example runtime file, which the adapter tests bind too.
func exampleRuntime(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("testdata/example.runtime.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// The example providers.
const exampleProviders = `providers:
  openai:                       # the name used in ai-system.provider
    kind: openai
    base_url: https://api.openai.com/v1
    api_key_env: OPENAI_API_KEY
    max_concurrency: 16
    requests_per_minute: 500
    max_retries: 5
    timeout: 60s
    structured_output: json_mode
  local:
    kind: openai
    base_url: http://127.0.0.1:11434/v1
  claude: {kind: anthropic, max_retries: 0, timeout: 2m}
`

// parseOK parses src, which must be valid.
func parseOK(t *testing.T, src string) *File {
	t.Helper()
	f, ds := Parse([]byte(src))
	if len(ds) > 0 || f == nil {
		t.Fatalf("Parse: %v", ds)
	}
	return f
}

// binding is f's binding named name.
func binding(t *testing.T, f *File, name string) Binding {
	t.Helper()
	for _, b := range f.Bindings {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no binding %q in %v", name, f)
	return Binding{}
}

func TestParseValid(t *testing.T) {
	f := parseOK(t, exampleRuntime(t))
	want := []Binding{
		{Name: "invoice-extractor-v7", Command: []string{"python3", "extract.py"}, Timeout: 30 * time.Second},
		{Name: "sentiment-api", URL: "http://127.0.0.1:9000/invoke", Timeout: 10 * time.Second},
	}
	if !reflect.DeepEqual(f.Bindings, want) || len(f.Providers) != 0 {
		t.Errorf("bindings = %#v, want %#v", f.Bindings, want)
	}
}

func TestParseForms(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(t *testing.T, f *File)
	}{
		{"an empty file binds nothing", "", func(t *testing.T, f *File) {
			if len(f.Bindings) != 0 {
				t.Errorf("bindings = %v", f.Bindings)
			}
		}},
		{"a comment-only file binds nothing", "# nothing yet\n", func(t *testing.T, f *File) {
			if len(f.Bindings) != 0 {
				t.Errorf("bindings = %v", f.Bindings)
			}
		}},
		{"the timeout defaults to 60s", "bindings:\n  a:\n    command: [x]\n", func(t *testing.T, f *File) {
			if got := binding(t, f, "a").Timeout; got != 60*time.Second {
				t.Errorf("timeout = %v", got)
			}
		}},
		{"plain numbers and booleans in a command are arguments as written", "bindings:\n  a:\n    command: [sleep, 1.50, true, 'quoted']\n", func(t *testing.T, f *File) {
			if got := binding(t, f, "a").Command; !slices.Equal(got, []string{"sleep", "1.50", "true", "quoted"}) {
				t.Errorf("command = %q", got)
			}
		}},
		{"a block-style command list", "bindings:\n  a:\n    command:\n      - python3\n      - -u\n", func(t *testing.T, f *File) {
			if got := binding(t, f, "a").Command; !slices.Equal(got, []string{"python3", "-u"}) {
				t.Errorf("command = %q", got)
			}
		}},
		{"an https URL with a composite timeout", "bindings:\n  a: {http: 'https://example.com:8443/v1/run?x=1', timeout: 1m30s}\n", func(t *testing.T, f *File) {
			if b := binding(t, f, "a"); b.URL != "https://example.com:8443/v1/run?x=1" || b.Timeout != 90*time.Second {
				t.Errorf("binding = %+v", b)
			}
		}},
		{"providers sit beside bindings", "providers:\n  openai: {kind: openai, api_key_env: OPENAI_API_KEY}\nbindings: {}\n", func(t *testing.T, f *File) {
			if len(f.Providers) != 1 || f.Providers[0].Name != "openai" {
				t.Errorf("providers = %v", f.Providers)
			}
		}},
		{"an empty bindings key binds nothing", "bindings:\n", func(t *testing.T, f *File) {
			if len(f.Bindings) != 0 {
				t.Errorf("bindings = %v", f.Bindings)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, parseOK(t, tt.src))
		})
	}
}

// refusal is a runtime file Parse refuses, and what it must say.
type refusal struct {
	name, src string
	want      []string // substrings of the messages, in order
	line      int      // of the first diagnostic; 0 when the parser's position is not pinned
	suggest   string   // of the first diagnostic
}

// checkRefusals parses each file: Parse gives no file and diagnostics, every one
// invalid_runtime (a registered code), whose messages hold want in order, the first at
// line with suggestion suggest, and no diagnostic repeats secret.
func checkRefusals(t *testing.T, tests []refusal, secret string) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ds := Parse([]byte(tt.src))
			if f != nil || len(ds) == 0 {
				t.Fatalf("Parse = %v, %v; want diagnostics", f, ds)
			}
			err := ds.Err()
			if len(ds) < len(tt.want) {
				t.Fatalf("got %d diagnostics, want at least %d:\n%v", len(ds), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(ds[i].Message, w) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, ds[i].Message, w)
				}
			}
			for _, d := range ds {
				if d.Code != diag.InvalidRuntime || !diag.Registered(d.Code) {
					t.Errorf("code = %q, want %q", d.Code, diag.InvalidRuntime)
				}
			}
			first := ds[0]
			if tt.line != 0 && first.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", first.Line, tt.line, err)
			}
			if first.Suggestion != tt.suggest {
				t.Errorf("suggestion = %q, want %q", first.Suggestion, tt.suggest)
			}
			if secret != "" && strings.Contains(err.Error(), secret) {
				t.Errorf("the error repeats the secret: %v", err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	checkRefusals(t, []refusal{
		{"unknown top-level key", "bindngs: {}\n", []string{`unknown key "bindngs"`}, 1, "bindings"},
		{"unknown binding key", "bindings:\n  a:\n    comand: [x]\n", []string{`binding "a": unknown key "comand"`}, 3, "command"},
		{"both command and http", "bindings:\n  a:\n    command: [x]\n    http: http://h/\n", []string{`binding "a" has both command and http`}, 4, ""},
		{"neither command nor http", "bindings:\n  a:\n    timeout: 5s\n", []string{`binding "a" has neither command nor http`}, 2, ""},
		{"an empty binding", "bindings:\n  a:\n", []string{`binding "a" has neither command nor http`}, 2, ""},
		{"a binding that is not a mapping", "bindings:\n  a: python3 run.py\n", []string{`binding "a" must be a mapping`}, 2, ""},
		{"bad timeout", "bindings:\n  a:\n    command: [x]\n    timeout: soon\n", []string{`binding "a": timeout "soon" is not a duration`}, 4, ""},
		{"timeout without a unit", "bindings:\n  a:\n    command: [x]\n    timeout: 30\n", []string{`binding "a": timeout 30 has no unit; write 30s`}, 4, ""},
		{"zero timeout", "bindings:\n  a:\n    command: [x]\n    timeout: 0s\n", []string{`binding "a": timeout must be greater than zero`}, 4, ""},
		{"negative timeout", "bindings:\n  a:\n    command: [x]\n    timeout: -1s\n", []string{`binding "a": timeout must be greater than zero`}, 4, ""},
		{"empty command", "bindings:\n  a:\n    command: []\n", []string{`binding "a": command is empty`}, 3, ""},
		{"command as a string", "bindings:\n  a:\n    command: python3 run.py\n", []string{`binding "a": command must be a list of strings such as [python3, extract.py]; it is not run by a shell`}, 3, ""},
		{"empty program", "bindings:\n  a:\n    command: ['', x]\n", []string{`binding "a": command[0] is empty`}, 3, ""},
		{"a command argument that is not a string", "bindings:\n  a:\n    command: [x, {y: z}]\n", []string{`binding "a": command[1] must be a string`}, 3, ""},
		{"URL with another scheme", "bindings:\n  a:\n    http: ftp://h/x\n", []string{`binding "a": http must be an http:// or https:// URL`}, 3, ""},
		{"URL without a host", "bindings:\n  a:\n    http: 'http:///x'\n", []string{`binding "a": http URL has no host`}, 3, ""},
		{"not a URL", "bindings:\n  a:\n    http: '://nope'\n", []string{`binding "a": http is not a valid URL`}, 3, ""},
		{"URL that is not a string", "bindings:\n  a:\n    http: [x]\n", []string{`binding "a": http must be a URL`}, 3, ""},
		{"duplicate binding", "bindings:\n  a:\n    command: [x]\n  a:\n    command: [y]\n", []string{`duplicate key "a"`}, 4, ""},
		{"bindings as a list", "bindings: [a, b]\n", []string{"bindings must map AI-system ids to their adapters"}, 1, ""},
		{"providers as a list", "providers: [a]\n", []string{"providers must map provider names"}, 1, ""},
		{"a list at the top", "- a\n", []string{"a runtime file is a mapping"}, 1, ""},
		{"two documents", "bindings: {}\n---\nbindings: {}\n", []string{"a runtime file holds exactly one YAML document"}, 2, ""}, // at the --- that starts the second
		{"an alias", "bindings:\n  a: &x {command: [x]}\n  b: *x\n", []string{"anchors (&name) are not allowed"}, 2, ""},
		{"YAML syntax error", "bindings:\n  a: [x\n", []string{"YAML syntax error"}, 0, ""},
		{"every problem is reported", "bindings:\n  a:\n    command: []\n  b:\n    http: ftp://x\n    timeout: 1\n",
			[]string{`binding "a": command is empty`, `binding "b": http must be`, `binding "b": timeout 1 has no unit`}, 3, ""},
	}, "")
}

func TestParseProviders(t *testing.T) {
	f := parseOK(t, exampleProviders)
	want := map[string]provider.Config{
		"openai": {Name: "openai", Kind: provider.KindOpenAI, BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY",
			MaxConcurrency: 16, RequestsPerMinute: 500, MaxRetries: 5, Timeout: 60 * time.Second, StructuredOutput: provider.ModeJSONMode},
		// A minimal entry: the defaults written out, no key, no limits.
		"local": {Name: "local", Kind: provider.KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1",
			MaxRetries: provider.DefaultMaxRetries, Timeout: provider.DefaultTimeout, StructuredOutput: provider.ModeJSONSchema},
		// max_retries: 0 is no retries, apart from absent, which is the default written out.
		"claude": {Name: "claude", Kind: provider.KindAnthropic, BaseURL: provider.DefaultBaseURL(provider.KindAnthropic),
			MaxRetries: 0, Timeout: 2 * time.Minute, StructuredOutput: provider.ModeJSONSchema},
	}
	var names []string
	for _, got := range f.Providers {
		names = append(names, got.Name)
		if w := want[got.Name]; !reflect.DeepEqual(got, w) {
			t.Errorf("provider %s =\n %+v\nwant\n %+v", got.Name, got, w)
		}
	}
	if !slices.Equal(names, []string{"openai", "local", "claude"}) {
		t.Errorf("providers %q, want them in the file's order", names)
	}
	if len(f.Bindings) != 0 {
		t.Errorf("providers are not bindings: %v", f.Bindings)
	}
}

func TestParseProvidersErrors(t *testing.T) {
	const secret = "sk-proj-DoNotEchoThis0123456789"
	checkRefusals(t, []refusal{
		{"unknown key", "providers:\n  a:\n    kind: openai\n    base_ulr: http://h/v1\n", []string{`provider "a": unknown key "base_ulr"; a provider has the keys kind, base_url`}, 4, "base_url"},
		{"no kind", "providers:\n  a:\n    base_url: http://h/v1\n", []string{`provider "a" has no kind; write kind: openai`}, 2, ""},
		{"an empty provider", "providers:\n  a:\n", []string{`provider "a" has no kind`}, 2, ""},
		{"a misspelt kind is not also a missing one", "providers:\n  a:\n    kidn: openai\n", []string{`unknown key "kidn"`}, 3, "kind"},
		{"unknown kind", "providers:\n  a:\n    kind: opneai\n", []string{`provider "a": unknown kind "opneai"; write openai (Chat Completions) or anthropic (Messages)`}, 3, "openai"},
		{"kind that is not a string", "providers:\n  a:\n    kind: [openai]\n", []string{`provider "a": kind must be openai`}, 3, ""},
		{"base_url with another scheme", "providers:\n  a: {kind: openai, base_url: 'ftp://h/v1'}\n", []string{`provider "a": base_url must be an http:// or https:// URL`}, 2, ""},
		{"base_url without a host", "providers:\n  a:\n    kind: openai\n    base_url: 'http:///v1'\n", []string{`provider "a": base_url URL has no host`}, 4, ""},
		{"base_url not a URL", "providers:\n  a:\n    kind: openai\n    base_url: '://x'\n", []string{`provider "a": base_url is not a valid URL`}, 4, ""},
		{"base_url empty", "providers:\n  a:\n    kind: openai\n    base_url: ''\n", []string{`provider "a": base_url must be a URL such as`}, 4, ""},
		{"zero max_concurrency", "providers:\n  a:\n    kind: openai\n    max_concurrency: 0\n", []string{`provider "a": max_concurrency must be at least 1; found 0`}, 4, ""},
		{"negative requests_per_minute", "providers:\n  a:\n    kind: openai\n    requests_per_minute: -5\n", []string{`provider "a": requests_per_minute must be at least 1; found -5`}, 4, ""},
		{"negative max_retries", "providers:\n  a:\n    kind: openai\n    max_retries: -1\n", []string{`provider "a": max_retries must be at least 0; found -1`}, 4, ""},
		{"a quoted number", "providers:\n  a:\n    kind: openai\n    max_concurrency: '16'\n", []string{`provider "a": max_concurrency must be a whole number of at least 1`}, 4, ""},
		{"a fraction", "providers:\n  a:\n    kind: openai\n    requests_per_minute: 1.5\n", []string{`provider "a": requests_per_minute must be a whole number`}, 4, ""},
		{"a huge number", "providers:\n  a:\n    kind: openai\n    max_concurrency: 99999999999999999999\n", []string{`provider "a": max_concurrency`}, 4, ""},
		{"timeout without a unit", "providers:\n  a:\n    kind: openai\n    timeout: 60\n", []string{`provider "a": timeout 60 has no unit; write 60s`}, 4, ""},
		{"bad timeout", "providers:\n  a:\n    kind: openai\n    timeout: soon\n", []string{`provider "a": timeout "soon" is not a duration`}, 4, ""},
		{"zero timeout", "providers:\n  a:\n    kind: openai\n    timeout: 0s\n", []string{`provider "a": timeout must be greater than zero`}, 4, ""},
		{"unknown structured_output", "providers:\n  a:\n    kind: openai\n    structured_output: json_shema\n", []string{`provider "a": unknown structured_output "json_shema"; write json_schema (the default) or json_mode`}, 4, "json_schema"},
		{"structured_output as a boolean", "providers:\n  a:\n    kind: openai\n    structured_output: true\n", []string{`provider "a": unknown structured_output "true"`}, 4, ""},
		{"a key written in the file", "providers:\n  a:\n    kind: openai\n    api_key: " + secret + "\n", []string{`provider "a": "api_key" looks like a credential; a key never goes in the runtime file`}, 4, "api_key_env"},
		{"a token written in the file", "providers:\n  a:\n    kind: anthropic\n    token: " + secret + "\n", []string{`provider "a": "token" looks like a credential`}, 4, "api_key_env"},
		{"the key where its variable's name belongs", "providers:\n  a:\n    kind: openai\n    api_key_env: " + secret + "\n", []string{`provider "a": api_key_env must be the name of an environment variable`}, 4, ""},
		{"a misspelt api_key_env is a typo, not a key", "providers:\n  a:\n    kind: openai\n    api_key_evn: OPENAI_API_KEY\n", []string{`unknown key "api_key_evn"`}, 4, "api_key_env"},
		{"an empty provider name", "providers:\n  '':\n    kind: openai\n", []string{"a provider's name must be a non-empty string"}, 2, ""},
		{"duplicate provider", "providers:\n  a: {kind: openai}\n  a: {kind: anthropic}\n", []string{`duplicate key "a"`}, 3, ""},
		{"a provider that is not a mapping", "providers:\n  a: openai\n", []string{`provider "a" must be a mapping with kind`}, 2, ""},
		{"an alias", "providers:\n  a: &x {kind: openai}\n  b: *x\n", []string{"anchors (&name) are not allowed"}, 2, ""},
		{"every problem is reported", "providers:\n  a:\n    kind: openia\n    max_retries: -2\n  b:\n    kind: anthropic\n    api_key: " + secret + "\n    timeout: 5\nbindings:\n  c: {command: []}\n",
			[]string{`unknown kind "openia"`, "max_retries must be at least 0", `"api_key" looks like a credential`, "timeout 5 has no unit", `binding "c": command is empty`}, 3, "openai"},
	}, secret)
}

// TestHardeningRuntimeEnv: env lists names, strictly; a value is never repeated.
func TestHardeningRuntimeEnv(t *testing.T) {
	f := parseOK(t, "bindings:\n  a:\n    command: [x]\n    env: [HF_HOME, OPENAI_API_KEY]\n  b:\n    command: [x]\n    env: []\n")
	if got := binding(t, f, "a").Env; !slices.Equal(got, []string{"HF_HOME", "OPENAI_API_KEY"}) {
		t.Errorf("env = %v", got)
	}
	for _, c := range []struct{ src, want string }{
		{"env: HF_HOME", "env must be a list of environment variable names"},
		{"env: {OPENAI_API_KEY: sk-secret-value}", "env must be a list of environment variable names"},
		{"env: [OPENAI_API_KEY=sk-secret-value]", "env[0] must be the name of an environment variable"},
		{"env: [1X]", "env[0] must be the name"},
		{"env: [A, [B]]", "env[1] must be the name"},
		{"env: [A, A]", "env lists A twice"},
		{"enb: [A]", `unknown key "enb"`},
	} {
		_, ds := Parse([]byte("bindings:\n  a:\n    command: [x]\n    " + c.src + "\n"))
		if err := ds.Err(); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%s: %v, want %q (and no value repeated)", c.src, err, c.want)
		}
	}
	_, ds := Parse([]byte("bindings:\n  a:\n    http: http://127.0.0.1:1/x\n    env: [A]\n"))
	if err := ds.Err(); err == nil || !strings.Contains(err.Error(), "an http binding starts no process") {
		t.Errorf("env on an http binding: %v", err)
	}
}

// TestFileShowsNoSecrets: a parsed file printed in any form shows names, never a command
// line, a URL or a base URL, each of which may hold a token.
func TestFileShowsNoSecrets(t *testing.T) {
	f := parseOK(t, "bindings:\n  cmd: {command: [run, --token=sk-cmd-secret]}\n  web: {http: 'https://u:pw-secret@h/x?key=sk-url-secret'}\n"+
		"providers:\n  p: {kind: openai, base_url: 'https://h/v1?token=sk-base-secret', api_key_env: K}\n")
	for _, s := range []string{
		fmt.Sprint(f), fmt.Sprintf("%v %+v %#v %s", *f, *f, *f, f),
		fmt.Sprintf("%v %+v %#v", f.Bindings, f.Bindings[1], f.Bindings),
		fmt.Sprintf("%v %+v %#v", f.Providers, f.Providers[0], f.Providers),
	} {
		if strings.Contains(s, "secret") {
			t.Errorf("printed: %s", s)
		}
	}
	if got := fmt.Sprint(f); got != `runtime file {bindings: [cmd, web], providers: [p]}` {
		t.Errorf("String() = %s", got)
	}
}
