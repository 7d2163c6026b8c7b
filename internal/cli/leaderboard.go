package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/leaderboard"
	"github.com/benchy-eval/benchy/store"
)

// runLeaderboard prints the leaderboard of a benchmark file: what GET /api/leaderboard
// answers for it (--json: the same bytes), from the store of its workspace.
func runLeaderboard(e *env, args []string) int {
	fs := flags(e, "leaderboard")
	asJSON := fs.Bool("json", false, "print the leaderboard as the API's JSON (GET /api/leaderboard)")
	dataset := fs.String("dataset", "", "the dataset digest to rank on (sha256:<hex>, or its start); default: the file's dataset as it stands (the newest completed run's when it does not validate)")
	wsFlag := fs.String("workspace", "", "the workspace whose runs to read (default: the nearest one from the benchmark's folder up)")
	pos, code, ok := parse(e, fs, args, 1)
	if !ok {
		return code
	}
	src, err := readBenchmark(e, pos[0])
	if err != nil {
		return inputFailed(e, "leaderboard", pos[0], err, false)
	}
	canonical, _, ds := compiler.CompileCanonical(src)
	if len(ds) > 0 {
		fmt.Fprint(e.stderr, ds.Format(displayName(pos[0])))
		return ExitFail
	}
	hash, err := ir.BenchmarkHash(canonical)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy leaderboard: %v\n", err)
		return ExitFail
	}
	ws := *wsFlag
	if ws == "" && pos[0] != "-" {
		if abs, err := filepath.Abs(pos[0]); err == nil {
			ws, _ = workspace.Find(filepath.Dir(abs))
		}
	}
	st, ws, code := openRuns(e, "leaderboard", ws)
	if code != ExitOK {
		return code
	}
	// The board of a file is of its dataset as it stands (the server's default, for the
	// same reason: two folders' files of one benchmark hash may name different data).
	digest, note := "", ""
	if *dataset == "" && pos[0] != "-" {
		digest, note = datasetNow(pos[0], canonical, ws)
	}
	board := api.Leaderboard{BenchmarkHash: hash, DatasetDigest: digest, Dimensions: [][]string{}, Entries: []api.LeaderboardEntry{}, Datasets: []api.LeaderboardDataset{}}
	if st != nil {
		defer st.Close()
		if *dataset != "" {
			why := ""
			if digest, why = findDataset(st, hash, *dataset); why != "" {
				fmt.Fprintf(e.stderr, "benchy leaderboard: --dataset %s: %s\n", *dataset, why)
				return ExitFail
			}
		}
		if board, err = leaderboard.Build(st, hash, digest); err != nil {
			fmt.Fprintf(e.stderr, "benchy leaderboard: %v\n", err)
			return ExitFail
		}
	}
	board.DatasetNote = note
	if pos[0] != "-" {
		board.Benchmark = benchmarkKey(ws, pos[0])
	}
	if *asJSON {
		return writeAPIJSON(e, "leaderboard", board)
	}
	if err := leaderboard.WriteText(e.stdout, board); err != nil {
		fmt.Fprintf(e.stderr, "benchy leaderboard: %v\n", err)
		return ExitFail
	}
	return ExitOK
}

// datasetNow is the digest of the dataset of benchmark file (canonical: its IR) as it
// stands, validated as a run would (engine.DatasetDigest); "" and why when it does not
// validate, as GET /api/leaderboard says it.
func datasetNow(file string, canonical []byte, ws string) (digest, note string) {
	b, err := ir.Unmarshal(canonical)
	if err != nil {
		return "", ""
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", ""
	}
	dir := filepath.Dir(abs)
	v, err := engine.DatasetDigest(context.Background(), b, dir, runPaths(dir, ws, false))
	if err == nil {
		return v.Digest, ""
	}
	key := benchmarkKey(ws, file)
	msg := err.Error()
	if ws != "" {
		if wsAbs, err := filepath.Abs(ws); err == nil {
			msg = strings.ReplaceAll(msg, wsAbs+string(filepath.Separator), "")
		}
	}
	return "", fmt.Sprintf("%s: its dataset %s does not validate now: %s; the board is of the dataset of the newest completed run",
		key, path.Join(path.Dir(key), b.Data.Path), msg)
}

// findDataset is the digest of the benchmark's datasets that want names (whole, or its
// start, with or without "sha256:"), or why there is not exactly one.
func findDataset(st *store.Store, hash, want string) (string, string) {
	board, err := leaderboard.Build(st, hash, "")
	if err != nil {
		return "", err.Error()
	}
	prefix := "sha256:" + strings.TrimPrefix(strings.ToLower(want), "sha256:")
	var found, all []string
	for _, d := range board.Datasets {
		all = append(all, fmt.Sprintf("%s (%s)", d.Digest, count(d.Systems, "system")))
		if strings.HasPrefix(d.Digest, prefix) {
			found = append(found, d.Digest)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], ""
	case len(all) == 0:
		return "", "no completed run of this benchmark recorded a dataset"
	case len(found) == 0:
		return "", "no completed run of this benchmark took it; its datasets: " + strings.Join(all, ", ")
	}
	return "", "names more than one dataset: " + strings.Join(found, ", ")
}

// writeAPIJSON prints v as the server writes an answer (writeJSON: HTML not escaped, a
// newline after), so that --json is the API's body byte for byte.
func writeAPIJSON(e *env, cmd string, v any) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(e.stderr, "benchy %s: %v\n", cmd, err)
		return ExitFail
	}
	if _, err := e.stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "benchy %s: %v\n", cmd, err)
		return ExitFail
	}
	return ExitOK
}
