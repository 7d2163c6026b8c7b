package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// maxDetailRow is the longest dataset row an example's detail reads from the dataset
// file: its input and expected output whole up to api.MaxDetail each.
const maxDetailRow = 2*api.MaxDetail + 4<<10

// datasetRow reads the row of example index from run's dataset when it is still the one
// the run took (its digest now is the run's), whole up to maxDetailRow: its input and
// expected output as written, or none and why (the notes of pages).
func (s *Server) datasetRow(ctx context.Context, run store.Run, index int) (input, expected json.RawMessage, note string) {
	if run.DatasetDigest == "" {
		return nil, nil, noteUnrecorded
	}
	now, p := s.runDatasetNow(ctx, run)
	switch {
	case now.digest == "":
		return nil, nil, now.why + ": its rows are not shown"
	case now.digest != run.DatasetDigest:
		return nil, nil, noteChanged
	}
	f, info, err := s.openRegular(p)
	if err != nil {
		return nil, nil, "the dataset cannot be read now"
	}
	defer f.Close()
	if !sameVersion(now.info, info) {
		return nil, nil, noteChanged
	}
	ix, err := s.index(p, f, info)
	if err != nil || index < 0 || index >= len(ix.offsets) {
		return nil, nil, "the dataset has no such row"
	}
	end := info.Size()
	if index+1 < len(ix.offsets) {
		end = ix.offsets[index+1]
	}
	n := min(end-ix.offsets[index], maxDetailRow)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, ix.offsets[index]); err != nil && err != io.EOF {
		return nil, nil, "the dataset cannot be read now"
	}
	if end-ix.offsets[index] > maxDetailRow {
		r := partialRow(buf) // longer than a detail reads: its start, clipped
		return r.Input, r.Expected, ""
	}
	line, _, _ := bytes.Cut(buf, []byte("\n"))
	if input, expected, ok := rowValues(bytes.TrimRight(line, "\r")); ok {
		return input, expected, ""
	}
	return nil, nil, "the dataset's row cannot be read"
}

// rowValues are a row's input and expected output, as the file wrote them.
func rowValues(line []byte) (input, expected json.RawMessage, ok bool) {
	var ex struct {
		Input    json.RawMessage `json:"input"`
		Expected json.RawMessage `json:"expected"`
	}
	if json.Unmarshal(line, &ex) != nil || ex.Input == nil {
		return nil, nil, false
	}
	return ex.Input, ex.Expected, true
}

// example is one stored example with what the server knows of its row.
type example struct {
	run             store.Run
	b               *ir.Benchmark
	d               store.Detail // its result, its row when the store has it, its neighbours
	input, expected json.RawMessage
	note            string // why input and expected are missing
}

// exampleOf reads example index of run id with its neighbours under the filter of query
// q: its result, and its row from the store (runs that recorded it) or else from the
// dataset while it is unchanged.
func (s *Server) exampleOf(ctx context.Context, id string, index int, q url.Values) (example, error) {
	run, err := s.st.GetRun(id)
	if err != nil {
		return example{}, storeError(err)
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return example{}, storeError(fmt.Errorf("run %s's stored IR: %w", id, err))
	}
	f, err := checkedFilter(q, b)
	if err != nil {
		return example{}, err
	}
	d, found, err := s.st.Detail(run.ID, index, f)
	if err != nil {
		return example{}, storeError(err)
	}
	if !found {
		return example{}, refuse(http.StatusNotFound, api.NotFound, "run %s has no result of example %d", run.ID, index)
	}
	ex := example{run: run, b: b, d: d, input: d.Input, expected: d.Expected}
	if ex.input == nil {
		ex.input, ex.expected, ex.note = s.datasetRow(ctx, run, index)
	}
	return ex, nil
}

// target is ex as the artifact endpoint sees it.
func (ex example) target() artifactTarget {
	return artifactTarget{run: ex.run, b: ex.b, valid: ex.d.Status == engine.StatusValid,
		refs: artifactRefs(ex.b, ex.input, ex.expected, decodeAny(ex.d.Prediction))}
}
