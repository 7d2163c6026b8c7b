package adapter

import (
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// CheckPrompt checks the prompt template of b's model AI-system as a run would before its
// first request, without a runtime file: its placeholders against the program's input,
// positioned in the prompt file (benchy validate). What depends on the provider (Anthropic
// takes no audio) is left to the run, which knows it. A prompt file the run could not read,
// or would refuse (readPromptIn's rules: prompt text only, no file a command of a runtime
// file at or above benchDir names, no runtime file by its text), is a data_not_found
// diagnostic at ai-system.prompt. A benchmark of another system, or
// with no prompt, has nothing to check here.
func CheckPrompt(b *ir.Benchmark, benchDir string, paths engine.Paths) diag.List {
	sys := b.AISystem
	if sys.Type != ir.SystemModel || sys.Prompt == "" {
		return nil
	}
	text, err := readPromptIn(benchDir, sys.Prompt, paths, nil)
	if err != nil { // as the run would stop: the file missing, unreadable, outside, not prompt text, a command's, a runtime file
		return diag.List{{Phase: "setup", Code: diag.DataNotFound, Path: []string{"ai-system", "prompt"}, Message: err.Error(), Line: 1, Column: 1}}
	}
	_, ds := provider.ParseTemplate(filepath.Join(benchDir, filepath.FromSlash(sys.Prompt)), text, b.Program.Input, "")
	return ds
}
