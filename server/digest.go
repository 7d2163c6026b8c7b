package server

import (
	"context"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// A run's predictions are shown beside its dataset's rows, and a benchmark file's board is
// of the dataset it names, only as they stand now: the digest of a dataset now
// (engine.DatasetDigest, which validates it as a run would) says whether it is still the
// exam a run took. It is kept per version of the dataset file (its identity, size and
// modification time, as the rows index is) and benchmark, so a page validates nothing once
// it is known; the artifacts' sums are kept by the engine. A dataset that does not
// validate is kept too, with why: it costs one validation per version, never an error.

// datasetNow is what is known of one dataset file version for one benchmark.
type datasetNow struct {
	info   fs.FileInfo // the version of the JSONL file it is of
	digest string      // "" when it has none
	why    string      // why it has none
}

type digestKey struct {
	workspace, dataset string // the server's folder, the dataset's workspace path
	benchmark          string // the benchmark hash (its program decides the artifacts)
}

// maxDigests is how many are kept; beyond it the cache starts again.
const maxDigests = 64

// digests is shared by the servers of a process, as boards are.
var digests = struct {
	mu   sync.Mutex
	m    map[digestKey]datasetNow
	slot chan struct{} // one validation at a time: a page never starts a second
}{m: map[digestKey]datasetNow{}, slot: make(chan struct{}, 1)}

// racyWindow: a file changed this recently may change again within its timestamps'
// resolution unseen (git's racily-clean rule): its digest is computed, not kept.
const racyWindow = 2 * time.Second

// sameVersion says a and b are one version of one file.
func sameVersion(a, b fs.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

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
	select {
	case digests.slot <- struct{}{}:
	case <-ctx.Done():
		return datasetNow{why: "the request ended before its dataset was checked"}
	}
	defer func() { <-digests.slot }()
	if d, ok := lookDigest(key, info); ok { // computed while this waited
		return d
	}
	d := datasetNow{info: info}
	v, err := engine.DatasetDigest(ctx, b, s.benchmarkDir(benchmark), s.paths())
	switch {
	case ctx.Err() != nil:
		return datasetNow{why: "the request ended before its dataset was checked"}
	case err != nil:
		d.why = "its dataset " + p + " does not validate now: " + s.relative(err.Error())
	default:
		d.digest = v.Digest
	}
	after, err := s.statRegular(p)
	if err != nil || !sameVersion(info, after) {
		return datasetNow{why: "its dataset " + p + " changed while it was checked"}
	}
	if age := time.Since(info.ModTime()); age >= racyWindow {
		digests.mu.Lock()
		if len(digests.m) >= maxDigests {
			clear(digests.m)
		}
		digests.m[key] = d
		digests.mu.Unlock()
	}
	return d
}

func lookDigest(key digestKey, info fs.FileInfo) (datasetNow, bool) {
	digests.mu.Lock()
	defer digests.mu.Unlock()
	d, ok := digests.m[key]
	return d, ok && sameVersion(d.info, info)
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

// runDatasetNow is datasetDigestNow of the dataset run took, through its stored IR.
func (s *Server) runDatasetNow(ctx context.Context, run store.Run) datasetNow {
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return datasetNow{why: "its stored IR cannot be read"}
	}
	hash := run.BenchmarkHash
	if hash == "" {
		hash = run.IRHash
	}
	return s.datasetDigestNow(ctx, run.Benchmark, b, hash)
}
