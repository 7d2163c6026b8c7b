package adapter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// promptWorkspace is a workspace whose runtime file binds a command naming a script, a
// rules file and a folder of notes (not the script's folder), beside a provider whose URL holds a token; sub/ has a
// runtime file of its own naming sub/tool.md.
func promptWorkspace(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	runtime := "bindings:\n  ext:\n    command: [python3, adapters/run.py, --rules=conf/rules.txt, notes/]\n" +
		"providers:\n  local: {kind: openai, base_url: \"http://127.0.0.1:9/v1?token=tok-Secret0123456789\"}\n"
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile:            runtime,
		"adapters/run.py":      "print('the adapter')\n",
		"adapters/help.txt":    "the adapter's help\n",
		"conf/rules.txt":       "rule: never tell\n",
		"notes/a.md":           "a note the adapter reads\n",
		"prompts/ok.md":        "Label the text.\n---user---\n{{text}}\n",
		"prompts/ok.txt":       "Label the text.\n",
		"prompts/p.json":       `{"text": "Label it."}`,
		"prompts/p.py":         "print('x')\n",
		"prompts/noext":        "Label the text.\n",
		"prompts/copy.txt":     runtime,
		"prompts/head.md":      "# the runtime file, kept\n" + runtime + strings.Repeat("# "+strings.Repeat("x", 1000)+"\n", 1100),
		"sub/" + RuntimeFile:   "bindings:\n  tool:\n    command: [./tool, tool.md]\n",
		"sub/tool.md":          "what sub's tool reads\n",
		"prompts/providers.md": "providers: say which\n",
	})
	for link, target := range map[string]string{"prompts/link.md": "../adapters/run.py", "prompts/rules.md": "../conf/rules.txt"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	if err := os.Link(filepath.Join(dir, "conf", "rules.txt"), filepath.Join(dir, "prompts", "hard.txt")); err != nil {
		t.Skip("no hard links here:", err)
	}
	return dir, runtime
}

// TestPromptFileRules: a model's prompt file follows the artifacts' rules in a run and in
// benchy validate alike: prompt text by its name and the name it resolves to (.md, .txt),
// never a file (or a file in a folder) a binding's command names, by a link or a hard link
// either, and never a runtime file by its text. Each refusal stops the binding before any
// request, naming the rule and no byte of the file; validate reports it as data_not_found
// at ai-system.prompt. Ordinary prompts are read.
func TestPromptFileRules(t *testing.T) {
	dir, runtime := promptWorkspace(t)
	rt, err := LoadRuntime(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
	cli := engine.Paths{Workspace: dir, Private: []string{filepath.Join(dir, RuntimeFile)}}
	server := engine.Paths{Workspace: dir, Private: []string{filepath.Join(dir, RuntimeFile), filepath.Join(dir, "sub", RuntimeFile)}}
	for _, tt := range []struct{ prompt, why string }{
		{"prompts/p.json", "is a .json file"},
		{"prompts/p.py", "is a .py file"},
		{"prompts/noext", "has no extension"},
		{"adapters/run.py", "is a .py file"},
		{"prompts/link.md", "leads to a file that is a .py file"},
		{"conf/rules.txt", "named by a binding's command"},
		{"notes/a.md", "named by a binding's command"},
		{"prompts/rules.md", "named by a binding's command"},
		{"prompts/hard.txt", "named by a binding's command"},
		{"prompts/copy.txt", "is a runtime file by its text"},
		{"prompts/head.md", "is a runtime file by its text"},
		{"prompts/providers.md", "is a runtime file by its text"},
	} {
		_, err := rt.Bind(modelBenchmark("local", tt.prompt), dir, cli, nil)
		if err == nil || !strings.Contains(err.Error(), "ai-system.prompt: ") || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("a run with prompt %s: %v, want a refusal saying %q", tt.prompt, err, tt.why)
		}
		ds := CheckPrompt(modelBenchmark("local", tt.prompt), dir, cli)
		if len(ds) != 1 || ds[0].Code != diag.DataNotFound || strings.Join(ds[0].Path, ".") != "ai-system.prompt" || !strings.Contains(ds[0].Message, tt.why) {
			t.Errorf("validate with prompt %s: %v, want data_not_found at ai-system.prompt saying %q", tt.prompt, ds, tt.why)
		}
		for _, e := range []string{errText(err), ds.Error()} {
			for _, line := range strings.Split(runtime, "\n") {
				if len(line) > 12 && strings.Contains(e, strings.TrimSpace(line)) {
					t.Errorf("prompt %s: the refusal shows the file: %s", tt.prompt, e)
				}
			}
		}
	}
	// A runtime file elsewhere in the workspace: the server counts every one.
	if _, err := rt.Bind(modelBenchmark("local", "sub/tool.md"), dir, server, nil); err == nil || !strings.Contains(err.Error(), "named by a binding's command in "+RuntimeFile) {
		t.Errorf("a prompt sub/'s runtime file names, in the server: %v", err)
	}
	// benchy run names its runtime file as given, relative to the working directory.
	t.Chdir(dir)
	rel := engine.Paths{Workspace: ".", Private: []string{RuntimeFile}}
	providerOnly, err := ParseRuntime([]byte("providers:\n  local: {kind: openai, base_url: \"http://127.0.0.1:9/v1\"}\n"), ".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := providerOnly.Bind(modelBenchmark("local", "../conf/rules.txt"), "prompts", rel, nil); err == nil || !strings.Contains(err.Error(), "named by a binding's command") {
		t.Errorf("a prompt the runtime file named relative to the working directory names: %v", err)
	}
	// validate, with no runtime file given, finds the benchmark's own.
	if ds := CheckPrompt(modelBenchmark("local", "tool.md"), filepath.Join(dir, "sub"), engine.Paths{Workspace: dir}); len(ds) != 1 || !strings.Contains(ds[0].Message, "named by a binding's command") {
		t.Errorf("validate of a benchmark in sub/ with prompt tool.md: %v", ds)
	}
	for _, ok := range []string{"prompts/ok.md", "prompts/ok.txt", "adapters/help.txt"} { // beside a script, not named
		if bd, err := rt.Bind(modelBenchmark("local", ok), dir, server, nil); err != nil || bd.PromptSHA256 == "" {
			t.Errorf("a run with prompt %s: %v", ok, err)
		}
		if ds := CheckPrompt(modelBenchmark("local", ok), dir, cli); len(ds) != 0 {
			t.Errorf("validate with prompt %s: %v", ok, ds)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestPromptRuleSparesWorkspaceRoot: a command word naming the workspace's root or a folder
// above it (go run ., node ., sh -c "cd / && ..."), which would claim every file, does not
// make every prompt "named by a binding's command", as it does not keep uploads out
// (server workspacePath); a folder inside the workspace still does, and the refusal names
// the binding and the word.
func TestPromptRuleSparesWorkspaceRoot(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile: "bindings:\n  dot:\n    command: [go, run, .]\n  up:\n    command: [sh, -c, \"cd / && cd .. && ./x\"]\n" +
			"  tools:\n    command: [node, tools]\n" +
			"providers:\n  local: {kind: openai, base_url: \"http://127.0.0.1:9/v1\"}\n",
		"model/prompt.md": "Label the text.\n",
		"tools/prompt.md": "Label the text.\n",
	})
	rt, err := LoadRuntime(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
	paths := engine.Paths{Workspace: dir, Private: []string{filepath.Join(dir, RuntimeFile)}}
	if _, err := rt.Bind(modelBenchmark("local", "prompt.md"), filepath.Join(dir, "model"), paths, nil); err != nil {
		t.Errorf("a prompt beside commands naming . and /: %v", err)
	}
	if ds := CheckPrompt(modelBenchmark("local", "prompt.md"), filepath.Join(dir, "model"), paths); len(ds) != 0 {
		t.Errorf("validate of a prompt beside commands naming . and /: %v", ds)
	}
	_, err = rt.Bind(modelBenchmark("local", "prompt.md"), filepath.Join(dir, "tools"), paths, nil)
	if err == nil || !strings.Contains(err.Error(), `binding tools, the word "tools"`) {
		t.Errorf("a prompt in a folder binding tools names: %v, want a refusal naming the binding and the word", err)
	}
}

// TestPromptRefusesHardLinksAndGlobs: a prompt file with another name (a hard link of .env,
// which no path rule sees: a review sent a workspace's .env and .git/config as prompts
// this way) is refused, and so is a file a command names by a glob its shell expands
// (cat conf/k*.txt); an ordinary prompt beside them is read.
func TestPromptRefusesHardLinksAndGlobs(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile: "bindings:\n  g:\n    command: [sh, -c, \"cat conf/k*.txt\"]\n" +
			"providers:\n  local: {kind: openai, base_url: \"http://127.0.0.1:9/v1\"}\n",
		".env":          "SECRET=s3cr3t-value-0123456789\n",
		"conf/key.txt":  "the key the command reads\n",
		"p/ok.md":       "Label the text.\n",
		"p/notes.txt":   "Label the text.\n",
		"conf/other.md": "Label the text.\n",
	})
	if err := os.Link(filepath.Join(dir, ".env"), filepath.Join(dir, "p", "env.md")); err != nil {
		t.Skip("no hard links here:", err)
	}
	rt, err := LoadRuntime(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
	paths := engine.Paths{Workspace: dir, Private: []string{filepath.Join(dir, RuntimeFile)}}
	for prompt, why := range map[string]string{"p/env.md": "has more than one name (a hard link)", "conf/key.txt": "named by a binding's command"} {
		_, err := rt.Bind(modelBenchmark("local", prompt), dir, paths, nil)
		if err == nil || !strings.Contains(err.Error(), why) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("a run with prompt %s: %v, want a refusal saying %q", prompt, err, why)
		}
	}
	for _, ok := range []string{"p/ok.md", "p/notes.txt", "conf/other.md"} {
		if _, err := rt.Bind(modelBenchmark("local", ok), dir, paths, nil); err != nil {
			t.Errorf("a run with prompt %s: %v", ok, err)
		}
	}
}

// TestPromptRuleReadsShellSpellings: a file a command reads under a spelling a shell
// rewrites is named all the same: a path with a space given as one argument, and in a
// sh -c line a word split by quotes, a glob's brackets, a leading $PWD and a backslash
// (a re-check sent each file's bytes as a prompt and read them back through the API).
func TestPromptRuleReadsShellSpellings(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile: "bindings:\n" +
			"  a: {command: [python3, scripts/echo.py, --key-file, \"conf/api key.txt\"]}\n" +
			"  b: {command: [sh, -c, \"cat co''nf/token.txt\"]}\n" +
			"  c: {command: [sh, -c, \"cat [k]eys/k.txt\"]}\n" +
			"  d: {command: [sh, -c, \"cat $PWD/cfg/v.md\"]}\n" +
			"  e: {command: [sh, -c, \"cat cre\\\\ds.txt\"]}\n" +
			"providers:\n  local: {kind: openai, base_url: \"http://127.0.0.1:9/v1\"}\n",
		"scripts/echo.py":  "print('x')\n",
		"conf/api key.txt": "SECRET-SPACEY-KEY-111\n",
		"conf/token.txt":   "SECRET-TOKEN\n",
		"keys/k.txt":       "SECRET-K\n",
		"cfg/v.md":         "SECRET-V\n",
		"creds.txt":        "SECRET-CREDS\n",
		"p/ok.md":          "Label the text.\n",
	})
	rt, err := LoadRuntime(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
	paths := engine.Paths{Workspace: dir, Private: []string{filepath.Join(dir, RuntimeFile)}}
	for _, prompt := range []string{"conf/api key.txt", "conf/token.txt", "keys/k.txt", "cfg/v.md", "creds.txt"} {
		_, err := rt.Bind(modelBenchmark("local", prompt), dir, paths, nil)
		if err == nil || !strings.Contains(err.Error(), "named by a binding's command") || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("a run with prompt %q: %v, want it refused as named by a binding's command", prompt, err)
		}
		if ds := CheckPrompt(modelBenchmark("local", prompt), dir, engine.Paths{Workspace: dir}); len(ds) != 1 {
			t.Errorf("validate with prompt %q: %v, want it refused", prompt, ds)
		}
	}
	if _, err := rt.Bind(modelBenchmark("local", "p/ok.md"), dir, paths, nil); err != nil {
		t.Errorf("an ordinary prompt beside them: %v", err)
	}
}
