package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// A page of results shows each example's input and expected output beside its prediction.
// The store keeps only results, so they are read from the run's dataset: an index of where
// each example starts is built once per version of the file (size and modification time),
// then a page costs one read per row however deep it is.

// maxRowBytes is the most of one dataset row a page carries; a longer row is left out.
const maxRowBytes = 1 << 20

// maxIndexed is how many datasets' indexes are kept; beyond it the cache starts again.
const maxIndexed = 16

type rowIndex struct {
	size    int64
	mod     time.Time
	offsets []int64 // the byte offset of each example (non-blank line), in order
}

type rowCache struct {
	mu sync.Mutex
	m  map[string]*rowIndex
}

// datasetPath is the workspace path of a run's dataset, or "" when it is not inside the
// workspace (or the IR does not say).
func datasetPath(run store.Run) string {
	var b struct {
		Data struct {
			Path string `json:"path"`
		} `json:"data"`
	}
	if json.Unmarshal(run.IR, &b) != nil {
		return ""
	}
	return datasetPathOf(run.Benchmark, b.Data.Path)
}

// datasetPathOf is the workspace path of the dataset data (its data.path) of the benchmark
// at workspace path benchmark, or "" when it is not inside the workspace.
func datasetPathOf(benchmark, data string) string {
	if data == "" || path.IsAbs(data) {
		return ""
	}
	p := path.Join(path.Dir(benchmark), data)
	if !fs.ValidPath(p) || engine.IsPrivate(p) { // .env, .benchy/, the runtime file: never shown as data
		return ""
	}
	return p
}

// index returns the example offsets of workspace file p, open as f at version info,
// building them if the file is new or changed.
func (s *Server) index(p string, f io.Reader, info fs.FileInfo) (*rowIndex, error) {
	s.rows.mu.Lock()
	defer s.rows.mu.Unlock()
	if ix, ok := s.rows.m[p]; ok && ix.size == info.Size() && ix.mod.Equal(info.ModTime()) {
		return ix, nil
	}
	ix := &rowIndex{size: info.Size(), mod: info.ModTime()}
	r := bufio.NewReaderSize(f, 256<<10)
	var off int64
	if b, _ := r.Peek(len(bom)); bytes.Equal(b, bom) {
		r.Discard(len(bom))
		off = int64(len(bom))
	}
	for {
		line, err := r.ReadSlice('\n')
		n, blank := len(line), len(bytes.TrimSpace(line)) == 0
		for err == bufio.ErrBufferFull { // a long line: read on to its end
			line, err = r.ReadSlice('\n')
			n, blank = n+len(line), blank && len(bytes.TrimSpace(line)) == 0
		}
		if !blank {
			ix.offsets = append(ix.offsets, off)
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if s.rows.m == nil || len(s.rows.m) >= maxIndexed {
		s.rows.m = map[string]*rowIndex{}
	}
	s.rows.m[p] = ix
	return ix, nil
}

var bom = []byte("\xef\xbb\xbf")

// Why a page shows no rows (api.ResultPage.RowsNote, api.Grid.RowsNote).
const (
	noteUnrecorded = "this run recorded no dataset digest (it was stored before Benchy recorded them): its rows are not shown"
	noteChanged    = "the dataset changed since this run: its rows are not shown"
)

// resultPage is a page of results as GET /api/runs/{id}/results sends it (api.ResultPage).
type resultPage struct {
	store.Page
	RowsNote string `json:"rows_note,omitempty"`
}

// withRows adds "input" and "expected" from the run's dataset to each result of a page,
// when the dataset is still the one the run took (its digest now is the run's): else the
// page has none, and the note says why. A result whose row cannot be read is left as it is.
func (s *Server) withRows(ctx context.Context, run store.Run, page store.Page) (store.Page, string) {
	if len(page.Results) == 0 {
		return page, ""
	}
	if run.DatasetDigest == "" {
		return page, noteUnrecorded
	}
	now := s.runDatasetNow(ctx, run)
	switch {
	case now.digest == "":
		return page, now.why + ": its rows are not shown"
	case now.digest != run.DatasetDigest:
		return page, noteChanged
	}
	if !s.rowsOf(datasetPath(run), now.info, page) {
		return page, noteChanged
	}
	return page, ""
}

// rowsOf adds the rows of workspace file p to the results of page, in place, when the file
// is at version (nil: any); false when it is not.
func (s *Server) rowsOf(p string, version fs.FileInfo, page store.Page) bool {
	if p == "" {
		return true
	}
	f, info, err := s.openRegular(p) // one open: the offsets are those of the file read
	if err != nil {
		return true
	}
	defer f.Close()
	if version != nil && !sameVersion(version, info) {
		return false
	}
	ix, err := s.index(p, f, info)
	if err != nil {
		return true
	}
	for i, res := range page.Results {
		var r struct {
			Index int `json:"index"`
		}
		if json.Unmarshal(res, &r) != nil || r.Index < 0 || r.Index >= len(ix.offsets) {
			continue
		}
		row := readRow(f, ix.offsets[r.Index])
		var ex struct {
			Input    json.RawMessage `json:"input"`
			Expected json.RawMessage `json:"expected"`
		}
		if row == nil || json.Unmarshal(row, &ex) != nil || ex.Input == nil {
			continue
		}
		merged := bytes.TrimRight(res, " \n\r\t")
		if len(merged) < 2 || merged[len(merged)-1] != '}' {
			continue
		}
		out := append([]byte(nil), merged[:len(merged)-1]...)
		out = append(out, `,"input":`...)
		out = append(out, ex.Input...)
		if ex.Expected != nil {
			out = append(out, `,"expected":`...)
			out = append(out, ex.Expected...)
		}
		page.Results[i] = append(out, '}')
	}
	return true
}

// readRow reads the line at off, without its end; nil when it is longer than maxRowBytes.
func readRow(ra io.ReaderAt, off int64) []byte {
	r := bufio.NewReader(io.NewSectionReader(ra, off, maxRowBytes+2))
	line, err := r.ReadBytes('\n')
	if err != nil && err != io.EOF {
		return nil
	}
	if len(line) > maxRowBytes {
		return nil
	}
	return bytes.TrimRight(line, "\r\n")
}
