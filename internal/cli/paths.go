package cli

import (
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/engine"
)

// runPaths is where `benchy run` of a benchmark in folder dir may read its dataset,
// artifacts and prompt file: inside its workspace ws (workspace.Find; "" when it is in
// none, and then its own folder); anywhere with --allow-outside. Private files (the
// runtime file, hidden files and folders) stay refused either way. A refusal for lying
// outside names the workspace's folder (by its name only: the message is stored with the
// run, and the server shows it), which benchy run found rather than was told.
func runPaths(dir, ws string, allowOutside bool) engine.Paths {
	why := "the nearest folder at or above it with a .benchy store, else with a " + adapter.RuntimeFile
	if ws == "" {
		ws, why = dir, "the benchmark's own folder: no folder above it has a .benchy store or a "+adapter.RuntimeFile
	}
	return engine.Paths{Workspace: ws, AllowOutside: allowOutside,
		Hint: "benchy run --allow-outside reads it anyway (the benchmark's workspace is the folder " + filepath.Base(ws) + ", " + why + ")"}
}
