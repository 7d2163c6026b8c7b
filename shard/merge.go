package shard

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// Set is the shards of one run under a folder, their manifests checked to agree.
type Set struct {
	Dir       string
	N         int
	Manifests []*Manifest // by K, every one of 0…N-1
	IR        *ir.Benchmark
	Canonical []byte // the IR's canonical JSON, as a store records it

	sum  []byte // SHA-256 of the lines the last Report read, which WriteDocument writes
	read *Want  // what the last Report checked them against; nil before it did
}

// Unfinished is a merge refused because shards are missing or incomplete: each is to be
// run again (Command).
type Unfinished struct {
	Dir    string
	Shards []Missing
}

// Missing is a shard a merge cannot use, and why.
type Missing struct {
	Shard engine.Shard
	Why   string // "missing", "incomplete", or what is wrong with its journal
}

func (u *Unfinished) Error() string { return Summary(u.Shards) }

var shardName = regexp.MustCompile(`^shard-(\d+)-of-(\d+)$`)

// Open reads the manifests of the shards under dir and checks that they are one run's:
// the same N, the same identities (ir, benchmark, dataset, system, binding, limit). Shards
// missing or not complete are an *Unfinished; shards that disagree an error.
func Open(dir string) (*Set, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	found := map[int]bool{}
	n := 0
	for _, e := range entries {
		m := shardName.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		k, _ := strconv.Atoi(m[1])
		nn, err := strconv.Atoi(m[2])
		if err != nil || nn > engine.MaxShards {
			return nil, fmt.Errorf("%s holds %s: a run has at most %d shards", dir, e.Name(), engine.MaxShards)
		}
		if n != 0 && nn != n {
			return nil, fmt.Errorf("%s holds shards of %d and of %d: the shards of several runs; give each run its own folder", dir, n, nn)
		}
		n = nn
		found[k] = true
	}
	if n == 0 {
		return nil, fmt.Errorf("%s holds no shard folder (shard-K-of-N)", dir)
	}
	set := &Set{Dir: dir, N: n, Manifests: make([]*Manifest, n)}
	un := &Unfinished{Dir: dir}
	var first *Manifest
	for k := range n {
		s := engine.Shard{K: k, N: n}
		if !found[k] {
			un.Shards = append(un.Shards, Missing{s, "missing"})
			continue
		}
		m, err := ReadManifest(Dir(dir, s))
		switch {
		case errors.Is(err, os.ErrNotExist):
			un.Shards = append(un.Shards, Missing{s, "missing (no manifest)"})
			continue
		case err != nil:
			return nil, err
		case m.K != k || m.N != n:
			return nil, fmt.Errorf("%s: its manifest is of shard %d/%d", Dir(dir, s), m.K, m.N)
		}
		if first == nil {
			first = m
		} else if d := m.Disagreement(first); d != "" {
			return nil, fmt.Errorf("shard %s ran another run than shard %d/%d: %s", s, first.K, n, d)
		}
		set.Manifests[k] = m
		if !m.Complete {
			un.Shards = append(un.Shards, Missing{s, "incomplete"})
		}
	}
	if len(un.Shards) > 0 {
		if first != nil {
			set.Manifests = slices.DeleteFunc(set.Manifests, func(m *Manifest) bool { return m == nil })
		}
		return set, un
	}
	canon, err := ir.Canonicalize(first.IR) // the manifest holds it indented
	if err != nil {
		return nil, fmt.Errorf("%s: its IR: %w", Dir(dir, first.Shard()), err)
	}
	b, err := ir.Unmarshal(canon)
	if err != nil {
		return nil, fmt.Errorf("%s: its IR: %w", Dir(dir, first.Shard()), err)
	}
	set.Canonical = canon
	if h := ir.Hash(canon); h != first.IRHash {
		return nil, fmt.Errorf("%s: its IR hashes to %s, not its ir_hash %s", Dir(dir, first.Shard()), h, first.IRHash)
	}
	set.IR = b
	return set, nil
}

// Any is a manifest of the set, for what every shard shares (nil when there is none).
func (s *Set) Any() *Manifest {
	for _, m := range s.Manifests {
		if m != nil {
			return m
		}
	}
	return nil
}

// Lines reads the shards' journals round-robin: line i is result i, from shard i % N.
// Each is checked to carry its index, and every journal to end with its shard's last
// example, so every index is present exactly once. Every line read goes into a SHA-256
// digest, so that a second reading can be held to the first's lines (WriteDocument) and a
// store can tell these lines merged again from others (Set.Digest).
type Lines struct {
	set   *Set
	files []*os.File
	rs    []*bufio.Reader
	i     int // the next index
	total int
	hash  hash.Hash
}

// Lines opens the journals of a complete set.
func (s *Set) Lines() (*Lines, error) {
	l := &Lines{set: s, total: s.Manifests[0].Total, hash: sha256.New()}
	for _, m := range s.Manifests {
		f, err := engine.OpenRegular(filepath.Join(Dir(s.Dir, m.Shard()), JournalFile))
		if errors.Is(err, engine.ErrNotRegular) {
			l.Close()
			return nil, &Unfinished{Dir: s.Dir, Shards: []Missing{{m.Shard(), damagedPrefix + JournalFile + " is not a regular file"}}}
		}
		if err != nil {
			l.Close()
			return nil, err
		}
		l.files = append(l.files, f)
		l.rs = append(l.rs, bufio.NewReaderSize(f, 64<<10))
	}
	return l, nil
}

// Next is the next result's line with its newline, or io.EOF after the last, once every
// journal is checked to end there.
func (l *Lines) Next() ([]byte, error) {
	n := len(l.rs)
	if l.i >= l.total {
		for k, r := range l.rs {
			if !isEOF(r) {
				return nil, l.bad(k, "holds results past its last example")
			}
		}
		return nil, io.EOF
	}
	k := l.i % n
	line, err := l.rs[k].ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		line, err = l.long(k, line)
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, l.bad(k, fmt.Sprintf("ends before example %d", l.i))
		}
		return nil, err
	}
	if index, ok := lineIndex(line); !ok || index != l.i {
		return nil, l.bad(k, fmt.Sprintf("holds another result where example %d should be", l.i))
	}
	l.i++
	l.hash.Write(line)
	return line, nil
}

// long reads the rest of a line longer than the reader's buffer.
func (l *Lines) long(k int, head []byte) ([]byte, error) {
	line := append([]byte(nil), head...)
	for {
		more, err := l.rs[k].ReadSlice('\n')
		line = appendLong(line, more)
		if len(line) > MaxLine {
			return nil, l.bad(k, fmt.Sprintf("holds a line longer than %d MiB where example %d should be", MaxLine>>20, l.i))
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

func (l *Lines) bad(k int, why string) error {
	s := engine.Shard{K: k, N: len(l.rs)}
	return &Unfinished{Dir: l.set.Dir, Shards: []Missing{{s, damagedPrefix + JournalFile + " " + why}}}
}

// Close closes the journals.
func (l *Lines) Close() {
	for _, f := range l.files {
		f.Close()
	}
}

// Read makes Lines an io.Reader of the results stream, for engine.WriteDocument.
type reader struct {
	l    *Lines
	rest []byte
	err  error
}

func (r *reader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		r.rest, r.err = r.l.Next()
		if errors.Is(r.err, io.EOF) && !bytes.Equal(r.l.hash.Sum(nil), r.l.set.sum) {
			r.err = errChanged
		}
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// Report reads every result of the set in index order through engine.Totals into the
// report an unsharded run would have made, each result also given to each (nil: none;
// an error it returns ends the merge). Nothing of the shards is taken on trust: every
// manifest must carry want's identities (a *Mismatch), and every line must be the result
// the benchmark gives its prediction, scored again against the dataset's expected output
// as a run scores it (engine.Rescorer; a line that is not refuses its shard as damaged),
// and the dataset must be the one the manifests name. What differs from a single run's is
// documented: started_at is the first shard's start, finished_at the last shard's end,
// concurrency the sum of the shards' workers, and shards lists them; each manifest's
// record of them is held to what a shard's run writes (Manifest.Implausible).
func (s *Set) Report(want *Want, each func(*engine.ExampleResult) error) (*engine.Report, error) {
	s.read = nil
	now := time.Now()
	for _, m := range s.Manifests {
		if d := m.Match(want); d != nil {
			return nil, d
		}
		if why := m.Implausible(now); why != "" {
			return nil, &Unfinished{Dir: s.Dir, Shards: []Missing{{m.Shard(), damagedManifest + why}}}
		}
	}
	first := s.Manifests[0]
	rs, err := engine.NewRescorer(want.IR, want.Dir, want.Paths)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	l, err := s.Lines()
	if err != nil {
		return nil, err
	}
	defer l.Close()
	totals := engine.NewTotals(want.IR, first.Total)
	for {
		line, err := l.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		k, n := (l.i-1)%len(l.rs), (l.i-1)/len(l.rs)+1 // the shard, and the line in its journal
		res, err := decodeWithin(line, rs.MaxValues())
		if err == nil {
			err = rs.Check(&res)
		}
		var a *engine.Abort
		if errors.As(err, &a) {
			return nil, err // the dataset's own problem, not the shard's
		}
		if err != nil {
			// A line that does not score so may be the dataset's doing: changed since the
			// shards ran it, it is named rather than the line.
			if d := s.datasetMismatch(rs); d != nil {
				return nil, d
			}
			return nil, l.bad(k, fmt.Sprintf("line %d does not score as the benchmark does (%v): it was edited; remove it and re-run the shard", n, err))
		}
		totals.Add(&res)
		if each != nil {
			if err := each(&res); err != nil {
				return nil, err
			}
		}
	}
	if d := s.datasetMismatch(rs); d != nil {
		return nil, d
	}
	s.sum, s.read = l.hash.Sum(nil), want
	head := engine.Report{IRHash: want.IRHash, BenchmarkHash: want.BenchmarkHash, DatasetDigest: first.DatasetDigest,
		AISystem: want.IR.AISystem, System: &want.System, Binding: want.Binding, Limit: first.Limit}
	var startedAt, finishedAt time.Time
	head.Shards = s.ShardRuns()
	for _, m := range s.Manifests {
		head.Concurrency += m.Concurrency
		if t, err := time.Parse(time.RFC3339Nano, m.StartedAt); err == nil && (startedAt.IsZero() || t.Before(startedAt)) {
			startedAt, head.StartedAt = t, m.StartedAt
		}
		if t, err := time.Parse(time.RFC3339Nano, m.FinishedAt); err == nil && t.After(finishedAt) {
			finishedAt, head.FinishedAt = t, m.FinishedAt
		}
	}
	return totals.Report(head), nil
}

// datasetMismatch reads the rest of the dataset and says how it is not the one the
// manifests name (its digest, or its examples under their limit), or nil.
func (s *Set) datasetMismatch(rs *engine.Rescorer) error {
	m := s.Manifests[0]
	digest, rows, err := rs.Finish(context.Background())
	if err != nil {
		return err
	}
	if digest != m.DatasetDigest {
		return &Mismatch{Code: diag.ShardDatasetMismatch, Shard: m.Shard(), What: "dataset_digest", Got: fmt.Sprintf("%q", m.DatasetDigest),
			Want: fmt.Sprintf("%q, the digest of the dataset as it now is", digest)}
	}
	if m.Limit > 0 {
		rows = min(rows, m.Limit)
	}
	if rows != m.Total {
		return &Mismatch{Code: diag.ShardDatasetMismatch, Shard: m.Shard(), What: "examples", Got: fmt.Sprint(m.Total),
			Want: fmt.Sprintf("%d, the dataset's under limit %d", rows, m.Limit)}
	}
	return nil
}

// errChanged is WriteDocument's error when the journals it reads are not the ones Report
// checked.
var errChanged = errors.New("the shards' journals changed while they were merged: merge them again")

// WriteDocument writes the result document of the set's run, rep its Report, streaming
// the journals' lines in index order; lines that are not those Report checked (a journal
// rewritten in between) fail it.
func (s *Set) WriteDocument(w io.Writer, rep *engine.Report) error {
	if s.read == nil {
		return errors.New("the shards are written once Report has checked them")
	}
	l, err := s.Lines()
	if err != nil {
		return err
	}
	defer l.Close()
	return engine.WriteDocument(w, rep, &reader{l: l})
}

// ShardRuns is the shards of the set as the merged report lists them.
func (s *Set) ShardRuns() []engine.ShardRun {
	var runs []engine.ShardRun
	for _, m := range s.Manifests {
		runs = append(runs, engine.ShardRun{Shard: m.Shard().String(), Examples: m.Examples,
			StartedAt: m.StartedAt, FinishedAt: m.FinishedAt, Concurrency: m.Concurrency})
	}
	return runs
}

// Checked reports whether the last Report read the set's lines, held to want: a caller
// that checked them first (to know their Digest) need not read them a second time before
// recording them.
func (s *Set) Checked(want *Want) bool { return s.read != nil && s.read == want }

// Digest is the SHA-256 of the lines the last Report read, in index order, "" before one
// did: with the shards' Identity, what tells one merge from another. The same shards with
// a line edited are another merge of them (StoredDigest).
func (s *Set) Digest() string {
	if s.read == nil {
		return ""
	}
	return "sha256:" + hex.EncodeToString(s.sum)
}

// StoredDigest is Set.Digest of results as a store keeps them (store.Stored), each line
// as the engine writes it: a merged run's results give the digest of the lines merged,
// which a run's engine wrote so.
func StoredDigest(results iter.Seq2[engine.ExampleResult, error]) (string, error) {
	h := sha256.New()
	var enc engine.LineEncoder
	for res, err := range results {
		if err != nil {
			return "", err
		}
		line, err := enc.Line(&res)
		if err != nil {
			return "", err
		}
		h.Write(line)
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// Identity is what tells one merge's shards from another's by their manifests, as a merged
// report lists them (ShardRuns): each shard's K/N, examples, start and end. Shards run
// again end later, so they are another merge; the same shards merged twice are one if
// their lines are the same too (Digest).
func Identity(shards []engine.ShardRun) string {
	h := sha256.New()
	for _, r := range shards {
		fmt.Fprintf(h, "%q %d %q %q\n", r.Shard, r.Examples, r.StartedAt, r.FinishedAt)
	}
	return hex.EncodeToString(h.Sum(nil))
}
