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

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// A page of results shows each example's input and expected output beside its prediction.
// The store keeps only results, so they are read from the run's dataset: an index of where
// each example starts is built once per version of the file (sameVersion: its identity,
// size and modification time), then a page costs one read per row however deep it is.

// maxRowRead is the most of one dataset row a page reads: store.MaxShown of its input and
// of its expected output, and a little for its keys and other members. A longer row (rows
// may be 1 MiB) is read only that far, its values clipped: pages of 200 rows of 1 MB read
// them whole to show 16 KiB of each, 370 MB for a 3.3 MB answer.
const maxRowRead = 2*store.MaxShown + 4<<10

// maxIndexed is how many datasets' indexes are kept; beyond it the cache starts again.
const maxIndexed = 16

type rowIndex struct {
	info    fs.FileInfo // the version of the file it is of (sameVersion)
	offsets []int64     // the byte offset of each example (non-blank line), in order
}

type rowCache struct {
	mu sync.Mutex
	m  map[string]*rowIndex
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
	if ix, ok := s.rows.m[p]; ok && sameVersion(ix.info, info) {
		return ix, nil
	}
	ix := &rowIndex{info: info}
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

// row is what a page shows of a dataset row: its input and expected output, each clipped
// (store.Clip), none when it cannot be read.
type row struct {
	Input, Expected json.RawMessage
	Clipped         bool
}

// withRows reads the dataset rows of the examples at indices from the run's dataset, when
// it is still the one the run took (its digest now is the run's): else none, and the note
// says why. It adds each row's bytes to sizes (those of the page's results) and stops
// once they pass bound (the page ends there, fits), so that a page never reads more rows
// than it shows. A row that cannot be read is left out.
func (s *Server) withRows(ctx context.Context, run store.Run, indices, sizes []int, bound int) ([]row, string) {
	if len(indices) == 0 {
		return nil, ""
	}
	if run.DatasetDigest == "" {
		return nil, noteUnrecorded
	}
	now, p := s.runDatasetNow(ctx, run) // the IR decoded once for both
	switch {
	case now.digest == "":
		return nil, now.why + ": its rows are not shown"
	case now.digest != run.DatasetDigest:
		return nil, noteChanged
	}
	rows, ok := s.rowsOf(p, now.info, indices, sizes, bound)
	if !ok {
		return nil, noteChanged
	}
	return rows, ""
}

// rowsOf reads the rows at indices of workspace file p when the file is at version (the
// one its digest was checked at), adding their bytes to sizes until they pass bound;
// false when it is not at version. Rows it cannot read are zero.
func (s *Server) rowsOf(p string, version fs.FileInfo, indices, sizes []int, bound int) ([]row, bool) {
	f, info, err := s.openRegular(p) // one open: the offsets are those of the file read
	if err != nil {
		return nil, true
	}
	defer f.Close()
	if !sameVersion(version, info) {
		return nil, false
	}
	ix, err := s.index(p, f, info)
	if err != nil {
		return nil, true
	}
	rows := make([]row, len(indices))
	buf := make([]byte, maxRowRead)
	total := 0
	for i, idx := range indices {
		if idx >= 0 && idx < len(ix.offsets) {
			rows[i] = readRow(f, ix.offsets[idx], buf)
			sizes[i] += len(rows[i].Input) + len(rows[i].Expected)
		}
		if total += sizes[i]; total > bound && i > 0 {
			break // the page ends at or before this row
		}
	}
	return rows, true
}

// readRow reads the row at off through buf: its input and expected output, clipped. A
// row longer than buf is read only as far as buf holds (partialRow).
func readRow(ra io.ReaderAt, off int64, buf []byte) row {
	n, err := ra.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return row{}
	}
	line := buf[:n]
	end := bytes.IndexByte(line, '\n')
	if end < 0 && n == len(buf) {
		return partialRow(line)
	}
	if end >= 0 {
		line = line[:end]
	}
	var ex struct {
		Input    json.RawMessage `json:"input"`
		Expected json.RawMessage `json:"expected"`
	}
	if json.Unmarshal(bytes.TrimRight(line, "\r"), &ex) != nil || ex.Input == nil {
		return row{}
	}
	var r row // the decoded values are copies: buf is read into again
	var clipped [2]bool
	r.Input, clipped[0] = store.Clip(ex.Input, len(ex.Input))
	if ex.Expected != nil {
		r.Expected, clipped[1] = store.Clip(ex.Expected, len(ex.Expected))
	}
	r.Clipped = clipped[0] || clipped[1]
	return r
}

// partialRow is what start, the start of a row longer than it, shows: the input and
// expected output it holds whole, the start of the one it cuts (clipped), and not what
// comes after the cut.
func partialRow(start []byte) row {
	dec := json.NewDecoder(bytes.NewReader(start))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return row{}
	}
	var r row
	for {
		tok, err := dec.Token()
		if err != nil {
			r.Clipped = true // cut inside a key
			break
		}
		key, ok := tok.(string)
		if !ok {
			break // the row's end: it was not longer after all
		}
		var v *json.RawMessage
		switch key {
		case "input":
			v = &r.Input
		case "expected":
			v = &r.Expected
		}
		off := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil { // cut inside this value
			if v != nil {
				*v, _ = store.Clip(bytes.TrimLeft(start[off:], " \t\r\n:"), -1)
			}
			r.Clipped = true
			break
		}
		if v != nil {
			var clipped bool
			*v, clipped = store.Clip(raw, len(raw))
			r.Clipped = r.Clipped || clipped
		}
	}
	if r.Input == nil {
		return row{}
	}
	return r
}
