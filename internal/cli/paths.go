package cli

import (
	"path/filepath"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
)

// runPaths is where `benchy run` of benchmark may read its dataset, artifacts and prompt
// file: inside the benchmark's workspace (the nearest folder above it with .benchy or a
// runtime file), or its own folder when it is in none; anywhere with --allow-outside.
// Private files (the runtime file, hidden files and folders) stay refused either way.
func runPaths(benchmark string, allowOutside bool) engine.Paths {
	dir := filepath.Dir(benchmark)
	ws, ok := workspace.Find(dir)
	if !ok {
		ws = dir
	}
	return engine.Paths{Workspace: ws, AllowOutside: allowOutside, Hint: "benchy run --allow-outside reads it anyway"}
}
