package shard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// Journal is a shard's results stream, continued across runs of the shard: the complete
// lines an earlier run wrote are kept and given back to the engine as its Prior, and the
// engine's results stream is appended after them, less the kept lines it writes again.
// It reads the kept lines one at a time as the engine asks, in index order, so memory
// does not grow with the journal.
type Journal struct {
	path  string
	shard engine.Shard
	out   *os.File      // appended to
	in    *os.File      // the kept lines, read back
	r     *bufio.Reader // over in, limited to the kept lines
	kept  int           // complete lines kept from an earlier run
	read  int           // of them, given to the engine
	skip  int           // lines of the engine's stream still to drop (they are kept already)
	torn  int64         // bytes of a torn last line cut off
	good  int64         // bytes of the kept lines
}

// OpenJournal opens the journal at path for shard s, creating it when absent. Its lines
// must be results of s in index order, from its first example; a last line that is torn
// (no newline, or not JSON) is cut off, a damaged line before it or a whole result of
// another example makes the journal refused, unchanged. A second run of the shard while
// one holds the journal is refused too.
func OpenJournal(path string, s engine.Shard) (*Journal, error) {
	// The journal is appended to through out, locked for the whole run before it is read:
	// a second run of the shard on this machine (or on another, where the shared
	// filesystem passes flock on, as Linux's NFS client does) stops here.
	out, err := openJournalFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	if err := lock(out); err != nil {
		out.Close()
		if errors.Is(err, errBusy) {
			return nil, fmt.Errorf("%s: shard %s is being run by another process: two runs of one shard would write one journal", path, s)
		}
		return nil, err
	}
	opened := false
	defer func() {
		if !opened {
			out.Close()
		}
	}()
	f, err := openJournalFile(path, os.O_RDWR)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !sameFile(f, out) {
		return nil, fmt.Errorf("%s changed while it was opened", path)
	}
	r := bufio.NewReaderSize(f, 256<<10)
	var good int64
	kept := 0
	for {
		line, err := readLine(r)
		if errors.Is(err, errLong) {
			return nil, fmt.Errorf("%s: line %d is longer than %d MiB: the journal is not a shard's", path, kept+1, MaxLine>>20)
		}
		if len(line) > 0 {
			index, ok := lineIndex(line)
			switch {
			case ok && line[len(line)-1] == '\n' && json.Valid(line) && index == s.Index(kept):
				good += int64(len(line))
				kept++
				continue
			case err == nil && !isEOF(r), ok && line[len(line)-1] == '\n' && json.Valid(line):
				// A damaged line before the last, or a whole result of another example: not a
				// line cut off by a run that died, which alone is dropped.
				return nil, fmt.Errorf("%s: line %d is not result %d of shard %s: the journal is not this shard's, or is damaged; remove it to run the shard again", path, kept+1, s.Index(kept), s)
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		break
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if size > good {
		if err := f.Truncate(good); err != nil {
			return nil, err
		}
	}
	in, err := openJournalFile(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	if !sameFile(in, out) {
		in.Close()
		return nil, fmt.Errorf("%s changed while it was opened", path)
	}
	opened = true
	return &Journal{path: path, shard: s, out: out, in: in, r: bufio.NewReaderSize(io.LimitReader(in, good), 64<<10),
		kept: kept, skip: kept, torn: size - good, good: good}, nil
}

// maxReply is the largest reply an adapter reads from an AI-system: a command's answer
// line (adapter's maxLine), an HTTP response body (adapter's and provider's maxBody).
const maxReply = 64 << 20

// MaxLine bounds one line of a journal: a result, the largest a run writes about three
// replies long, and 1 MiB for the rest. A reply of invalid UTF-8 inside a string is
// repaired (U+FFFD, 3 bytes for each byte) into an invalid output's prediction of three
// times its size; an undeclared key as long as the reply is in the prediction, the error's
// path and its message. What decoding a line costs is bounded apart (decodeWithin).
const MaxLine = 3*maxReply + 1<<20

var errLong = errors.New("line too long")

// readLine reads up to and including the next newline, at most MaxLine bytes (errLong
// past them), as ReadBytes does otherwise.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return append([]byte(nil), line...), err
	}
	out := append([]byte(nil), line...)
	for {
		more, err := r.ReadSlice('\n')
		out = appendLong(out, more)
		if len(out) > MaxLine {
			return nil, errLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return out, err
		}
	}
}

// appendLong appends more to a line being read, doubling its room when it runs out: a
// line of many MiB read 64 KiB at a time costs twice its size, not the five times append's
// growth by a quarter costs.
func appendLong(line, more []byte) []byte {
	if cap(line)-len(line) < len(more) {
		line = slices.Grow(line, max(len(more), cap(line)))
	}
	return append(line, more...)
}

// errBusy is lock's error when another process holds the journal.
var errBusy = errors.New("locked by another process")

// isEOF reports whether r has nothing more to read.
func isEOF(r *bufio.Reader) bool {
	_, err := r.Peek(1)
	return err != nil
}

// Kept is how many results an earlier run wrote that are reused; Torn the bytes of a
// torn last line cut off.
func (j *Journal) Kept() int   { return j.kept }
func (j *Journal) Torn() int64 { return j.torn }

// Prior is engine.Options.Prior: the kept result of example index, read in turn. The
// engine asks in index order, from the shard's first example.
func (j *Journal) Prior(index int) (engine.ExampleResult, bool) {
	if j.read >= j.kept || index != j.shard.Index(j.read) {
		return engine.ExampleResult{}, false
	}
	line, err := j.r.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return engine.ExampleResult{}, false
	}
	var res engine.ExampleResult
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber() // as the engine decodes values: the prediction written again as it was
	if dec.Decode(&res) != nil || res.Index != index {
		return engine.ExampleResult{}, false
	}
	j.read++
	return res, true
}

// Write is the engine's results stream (engine.Options.Results): the lines of the kept
// results, which the engine writes first, are dropped, and the rest appended.
func (j *Journal) Write(p []byte) (int, error) {
	n := len(p)
	for j.skip > 0 && len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			return n, nil
		}
		p = p[i+1:]
		j.skip--
	}
	if len(p) == 0 {
		return n, nil
	}
	if _, err := j.out.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// Close syncs the journal and closes it.
func (j *Journal) Close() error {
	j.in.Close()
	err := j.out.Sync()
	if cerr := j.out.Close(); err == nil {
		err = cerr
	}
	return err
}

// lineIndex reads the index a result line begins with ({"index":N,...), as the engine
// writes it first, without decoding the line.
func lineIndex(line []byte) (int, bool) {
	const prefix = `{"index":`
	if !bytes.HasPrefix(line, []byte(prefix)) {
		return 0, false
	}
	n, digits := 0, 0
	for _, c := range line[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		if digits++; digits > 18 {
			return 0, false
		}
	}
	return n, digits > 0
}

// sameFile reports whether a and b are open on one file.
func sameFile(a, b *os.File) bool {
	ai, err1 := a.Stat()
	bi, err2 := b.Stat()
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// Rescore holds the kept lines to the rule a merge holds every line to (Set.Report): each
// must be the result the benchmark b gives its prediction, scored again against the
// dataset read from benchDir within paths. A line that is not refuses the journal, which
// is left as it is; the error then comes with the dataset's digest as it now is, so that
// a caller can tell a dataset changed since the shard ran from a journal edited.
func (j *Journal) Rescore(b *ir.Benchmark, benchDir string, paths engine.Paths) (digest string, err error) {
	if j.kept == 0 {
		return "", nil
	}
	f, err := openJournalFile(j.path, os.O_RDONLY)
	if err != nil {
		return "", err
	}
	defer f.Close()
	rs, err := engine.NewRescorer(b, benchDir, paths)
	if err != nil {
		return "", err
	}
	defer rs.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, j.good), 64<<10)
	for n := 1; n <= j.kept; n++ {
		line, err := readLine(r)
		if err != nil {
			return "", fmt.Errorf("%s: reading line %d again: %w", j.path, n, err)
		}
		res, err := decodeWithin(line, rs.MaxValues())
		if err == nil {
			err = rs.Check(&res)
		}
		var a *engine.Abort
		if errors.As(err, &a) {
			return "", err
		}
		if err != nil {
			digest, _, _ = rs.Finish(context.Background())
			return digest, fmt.Errorf("%s: line %d does not score as the benchmark does (%v): the journal was edited; remove it to run the shard again", j.path, n, err)
		}
	}
	return "", nil
}
