package cli

import (
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
)

// runPaths is where `benchy run` of benchmark may read its dataset, artifacts and prompt
// file: inside the benchmark's workspace (workspace.Find), or its own folder when it is in
// none; anywhere with --allow-outside. Private files (the runtime file, hidden files and
// folders) stay refused either way. A refusal for lying outside names the workspace's
// folder (by its name only: the message is stored with the run, and the server shows it),
// which benchy run found rather than was told.
func runPaths(benchmark string, allowOutside bool) engine.Paths {
	dir := filepath.Dir(benchmark)
	ws, ok := workspace.Find(dir)
	why := "the outermost folder above it with a .benchy store or a " + adapter.RuntimeFile
	if !ok {
		ws, why = dir, "the benchmark's own folder: no folder above it has a .benchy store or a "+adapter.RuntimeFile
	}
	return engine.Paths{Workspace: ws, AllowOutside: allowOutside,
		Hint: "benchy run --allow-outside reads it anyway (the benchmark's workspace is the folder " + filepath.Base(ws) + ", " + why + ")"}
}
