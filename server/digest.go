package server

import (
	"context"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// A run's predictions are shown beside its dataset's rows, and a benchmark file's board is
// of the dataset it names, only as they stand now: the digest of a dataset now
// (engine.DatasetDigest, which validates it as a run would) says whether it is still the
// exam a run took. It is kept per version of the dataset file (its identity, size and
// modification time, as the rows index is) and benchmark, and trusted again only while
// the files it was made of are unchanged: engine.Validated.Unchanged stats the JSONL file
// and each artifact, so an image rewritten in place (the JSONL file the same) is seen at
// the next page, and so is the image set back. A page validates nothing while nothing
// changed. A re-check that passed is trusted for recheckTrust times what it took, so that
// re-checking costs pages at most a tenth of their time: 65,536 artifacts take some
// 120 ms to stat (1.3 s to validate again, their sums known), trusted 1.2 s; a few images
// take microseconds, re-checked at every page. Where the validation could not remember
// its artifacts (more than the engine keeps, or more than this cache keeps in all:
// maxFiles), or the dataset did not validate (its error names no files to stat), the
// entry is trusted for recheckAfter, then validated again at the next page: such a change
// is seen within 30 s.

// datasetNow is what is known of one dataset file version for one benchmark.
type datasetNow struct {
	info   fs.FileInfo // the version of the JSONL file it is of
	digest string      // "" when it has none
	why    string      // why it has none
	// validated re-checks the files digest is of (nil: it cannot, see recheckAfter)
	validated *engine.Validated
	at        time.Time // when it was validated
}

// kept is a cache entry: what was found, and how long its last re-check holds.
type kept struct {
	d       datasetNow
	mu      sync.Mutex // one re-check at a time: the others wait for its answer
	until   time.Time  // the last re-check holds until then
	changed bool       // a re-check found a file changed: it never holds again
}

// holds re-checks e's files, or trusts the last re-check while it holds.
func (e *kept) holds() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	start := time.Now()
	switch {
	case e.changed:
		return false
	case start.Before(e.until):
		return true
	case !e.d.validated.Unchanged():
		e.changed = true
		return false
	}
	e.until = time.Now().Add(recheckTrust * time.Since(start))
	return true
}

type digestKey struct {
	workspace, dataset string // the server's folder, the dataset's workspace path
	benchmark          string // the benchmark hash (its program decides the artifacts)
}

const (
	// maxDigests is how many are kept; beyond it the cache starts again.
	maxDigests = 64
	// maxFiles bounds the files the kept entries re-check, in all (the engine keeps some
	// 8 MB for 65,536: 32 MB at most): an entry past it is kept without them, re-checked
	// by time.
	maxFiles = 1 << 18
	// recheckAfter is how long an entry that cannot be re-checked file by file is
	// trusted: a changed artifact of such a dataset shows within it.
	recheckAfter = 30 * time.Second
	// recheckTrust: a passing re-check holds for this many times what it took.
	recheckTrust = 10
)

// digests is shared by the servers of a process, as boards are.
var digests = struct {
	mu      sync.Mutex
	m       map[digestKey]*kept
	files   int                   // the files m's entries re-check
	flights map[digestKey]*flight // the validation under way of each key
	slot    chan struct{}         // one validation at a time: a page never starts a second
	runs    atomic.Int64          // validations started, for tests
}{m: map[digestKey]*kept{}, flights: map[digestKey]*flight{}, slot: make(chan struct{}, 1)}

// flight is one validation of a key, whose result every request waiting for it shares
// (singleflight): a page of 10 requests at once validates once, not 10 times in turn. It
// is cancelled when the last request waiting for it goes away.
type flight struct {
	info    fs.FileInfo // the JSONL file's version it was started for
	done    chan struct{}
	d       datasetNow // set before done is closed
	waiting int        // requests waiting, under digests.mu
	cancel  context.CancelFunc
}

// racyWindow: a file changed this recently may change again within its timestamps'
// resolution unseen (git's racily-clean rule): its digest is computed, not kept.
const racyWindow = 2 * time.Second

// sameVersion says a and b are one version of one file.
func sameVersion(a, b fs.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// ended is what a request that went away before its dataset was checked is told.
var ended = datasetNow{why: "the request ended before its dataset was checked"}

// datasetDigestNow is the digest of the dataset of benchmark b (hash: its benchmark hash)
// at workspace path benchmark as the files now stand, with the version of the JSONL file
// it is of; "" and why when it has none (not in the workspace, unreadable, invalid).
func (s *Server) datasetDigestNow(ctx context.Context, benchmark string, b *ir.Benchmark, hash string) datasetNow {
	p := datasetPathOf(benchmark, b.Data.Path)
	if p == "" {
		return datasetNow{why: "its dataset is not a file of the workspace"}
	}
	info, err := s.statRegular(p)
	if err != nil {
		return datasetNow{why: "its dataset " + p + " cannot be read"}
	}
	key := digestKey{s.dir, p, hash}
	if d, ok := lookDigest(key, info); ok {
		return d
	}
	return s.shared(ctx, key, info, func(ctx context.Context) datasetNow { return s.validate(ctx, key, info, benchmark, b) })
}

// shared waits for the validation of key at version info under way, or starts it, and
// answers its result; a request whose ctx ends stops waiting at once.
func (s *Server) shared(ctx context.Context, key digestKey, info fs.FileInfo, validate func(context.Context) datasetNow) datasetNow {
	digests.mu.Lock()
	f := digests.flights[key]
	if f == nil || !sameVersion(f.info, info) { // another version of the file: its own
		vctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{info: info, done: make(chan struct{}), cancel: cancel}
		digests.flights[key] = f
		go func() {
			d := validate(vctx)
			cancel()
			digests.mu.Lock()
			if digests.flights[key] == f {
				delete(digests.flights, key)
			}
			f.d = d
			digests.mu.Unlock()
			close(f.done)
		}()
	}
	f.waiting++
	digests.mu.Unlock()
	select {
	case <-f.done:
		return f.d
	case <-ctx.Done():
		digests.mu.Lock()
		select {
		case <-f.done: // it ended as the request did: its answer is here
			digests.mu.Unlock()
			return f.d
		default:
		}
		if f.waiting--; f.waiting == 0 { // nobody waits: the validation stops, unkept
			f.cancel()
			if digests.flights[key] == f {
				delete(digests.flights, key)
			}
		}
		digests.mu.Unlock()
		return ended
	}
}

// validate is one validation of the dataset of key, the JSONL file at version info, kept
// when it can be.
func (s *Server) validate(ctx context.Context, key digestKey, info fs.FileInfo, benchmark string, b *ir.Benchmark) datasetNow {
	select {
	case digests.slot <- struct{}{}:
	case <-ctx.Done():
		return ended
	}
	defer func() { <-digests.slot }()
	if d, ok := lookDigest(key, info); ok { // kept by another version's flight meanwhile
		return d
	}
	digests.runs.Add(1)
	d := datasetNow{info: info, at: time.Now()}
	v, err := engine.DatasetDigest(ctx, b, s.benchmarkDir(benchmark), s.paths())
	switch {
	case ctx.Err() != nil:
		return ended
	case err != nil:
		d.why = "its dataset " + key.dataset + " does not validate now: " + s.relative(err.Error())
	default:
		d.digest = v.Digest
		if v.Files() > 0 {
			d.validated = &v
		}
	}
	after, err := s.statRegular(key.dataset)
	if err != nil || !sameVersion(info, after) {
		return datasetNow{why: "its dataset " + key.dataset + " changed while it was checked"}
	}
	if age := time.Since(info.ModTime()); age >= racyWindow {
		keepDigest(key, d)
	}
	return d
}

// keepDigest keeps d as key's entry, without its files to re-check past maxFiles.
func keepDigest(key digestKey, d datasetNow) {
	digests.mu.Lock()
	defer digests.mu.Unlock()
	if len(digests.m) >= maxDigests {
		clear(digests.m)
		digests.files = 0
	}
	if old, ok := digests.m[key]; ok && old.d.validated != nil {
		digests.files -= old.d.validated.Files()
	}
	if d.validated != nil {
		if n := d.validated.Files(); digests.files+n <= maxFiles {
			digests.files += n
		} else {
			d.validated = nil
		}
	}
	digests.m[key] = &kept{d: d}
}

// lookDigest is the kept entry of key when it is of the JSONL file's version info and
// still holds: its files unchanged (kept.holds), or, where those are unknown, validated
// less than recheckAfter ago.
func lookDigest(key digestKey, info fs.FileInfo) (datasetNow, bool) {
	digests.mu.Lock()
	e := digests.m[key]
	digests.mu.Unlock()
	switch {
	case e == nil || !sameVersion(e.d.info, info):
		return datasetNow{}, false
	case e.d.validated != nil:
		return e.d, e.holds()
	default:
		return e.d, time.Since(e.d.at) < recheckAfter
	}
}

// statRegular is the version of workspace file p, opened as a page would read it.
func (s *Server) statRegular(p string) (fs.FileInfo, error) {
	f, info, err := s.openRegular(p)
	if err != nil {
		return nil, err
	}
	f.Close()
	return info, nil
}

// runDatasetNow is datasetDigestNow of the dataset run took, through its stored IR, and
// that dataset's workspace path (datasetPathOf; "" when outside it).
func (s *Server) runDatasetNow(ctx context.Context, run store.Run) (datasetNow, string) {
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return datasetNow{why: "its stored IR cannot be read"}, ""
	}
	hash := run.BenchmarkHash
	if hash == "" {
		hash = run.IRHash
	}
	return s.datasetDigestNow(ctx, run.Benchmark, b, hash), datasetPathOf(run.Benchmark, b.Data.Path)
}
