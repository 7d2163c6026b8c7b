package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// The dataset digest names the exam a run took, apart from where it lies: "sha256:" and the
// hex SHA-256 of this text, in this order (DigestVersion 1):
//
//	benchy-dataset-digest 1\n
//	artifact <hex SHA-256 of the artifact's bytes>\n      one line per artifact reference
//	jsonl <hex SHA-256 of the JSONL file's bytes, every byte as stored>\n
//
// The artifact lines follow the references in the order the validation pass meets them:
// row by row, input before expected, fields in the order the program declares them, list
// items in order. A file named twice has two lines. The jsonl line comes last: the file's
// sum is known only once its last byte was read (TestDatasetDigestPinned holds the order). The artifacts' paths are in the JSONL
// bytes already, relative to the dataset file, so moving the workspace changes nothing, and
// one changed byte of the dataset or of any artifact changes the digest.
const DigestVersion = 1

// digester accumulates a dataset digest during the validation pass.
type digester struct {
	jsonl hash.Hash // of the JSONL bytes, fed by the reader
	list  hash.Hash // of the text above, artifact lines as they come
	err   error     // the first artifact that could not be read
	// seen are the versions of the artifacts digested, by resolved path: for the second pass
	// to check that the adapters are given those, and for Validated.Unchanged (nil past
	// maxSeen of them or maxSeenBytes of paths: not checked). A path met twice keeps the
	// version first met: one changed in between is a change.
	seen      map[string]versionKey
	seenBytes int
	racy      bool // a version seen was too recent to vouch for (fileKey)
}

// maxSeen and maxSeenBytes bound the artifact versions a validation remembers: while it
// runs, a map of 65,536 paths of 62 bytes takes 12 MB (measured); what Validated keeps
// of them, a slice, 56 bytes a path beside its bytes, at most 8 MB.
const (
	maxSeen      = 1 << 16
	maxSeenBytes = 4 << 20
)

func newDigester() *digester {
	d := &digester{jsonl: sha256.New(), list: sha256.New(), seen: map[string]versionKey{}}
	io.WriteString(d.list, "benchy-dataset-digest 1\n")
	return d
}

// artifact adds one artifact reference: f, open and checked, whose info is the file's.
// Its name is its resolved absolute path (the confinement's folder, links resolved, joined
// to the path within it), what Validated.Unchanged stats again.
func (d *digester) artifact(f *os.File, info fs.FileInfo) {
	real := f.Name()
	k, cacheable := fileKey(info)
	d.racy = d.racy || !cacheable
	switch _, known := d.seen[real]; {
	case d.seen == nil || known:
	case k == (versionKey{}) || !filepath.IsAbs(real) || len(d.seen) >= maxSeen || d.seenBytes+len(real) > maxSeenBytes:
		d.seen = nil // not all known: none is checked
	default:
		d.seen[real] = k
		d.seenBytes += len(real)
	}
	sum, err := artifactSum(f, info)
	if err != nil {
		if d.err == nil {
			d.err = err
		}
		return
	}
	io.WriteString(d.list, "artifact "+sum+"\n")
}

// versionAt is the version of the file at a resolved path.
type versionAt struct {
	path string
	key  versionKey
}

// versions are the artifact versions seen, in no order (nil: not all known).
func (d *digester) versions() []versionAt {
	if d.seen == nil {
		return nil
	}
	out := make([]versionAt, 0, len(d.seen))
	for p, k := range d.seen {
		out = append(out, versionAt{p, k})
	}
	return out
}

// sum is the digest, once every row was read.
func (d *digester) sum() string {
	io.WriteString(d.list, "jsonl "+hex.EncodeToString(d.jsonl.Sum(nil))+"\n")
	return "sha256:" + hex.EncodeToString(d.list.Sum(nil))
}

// artifactSum is the hex SHA-256 of an artifact's bytes. A file that has not changed since
// it was last hashed by this process (same device, inode, size, modification and change
// times) is not read again: completed runs of one dataset, a server's many runs, hash each
// image once. The change time moves on any write and cannot be set back by a user, so a
// rewritten file is always read again.
func artifactSum(f *os.File, info fs.FileInfo) (string, error) {
	key, cacheable := fileKey(info)
	if cacheable {
		if sum, ok := sums.get(key); ok {
			return sum, nil
		}
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if cacheable && n == info.Size() {
		if now, err := f.Stat(); err == nil && sameVersion(now, info) {
			sums.put(key, sum)
		}
	}
	return sum, nil
}

// versionKey names one version of one file.
type versionKey struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// fileVersion is the version of the open file f, zero where it cannot be known.
func fileVersion(f *os.File) versionKey {
	k, _ := openVersion(f)
	return k
}

// openVersion is fileVersion, and whether that version is old enough to vouch for (fileKey).
func openVersion(f *os.File) (versionKey, bool) {
	info, err := f.Stat()
	if err != nil {
		return versionKey{}, false
	}
	return fileKey(info)
}

// pathVersion is the version of the file at path now, links not followed: the path of a
// file a validation read, its links resolved then, so a link put there since is a change.
func pathVersion(path string) versionKey {
	info, err := os.Lstat(path)
	if err != nil {
		return versionKey{}
	}
	k, _ := fileKey(info)
	return k
}

func sameVersion(a, b fs.FileInfo) bool {
	ka, okA := fileKey(a)
	kb, okB := fileKey(b)
	return okA && okB && ka == kb
}

// sumCache remembers artifact digests, at most maxSums of them: when full it is emptied,
// which costs a re-read, never a wrong digest.
type sumCache struct {
	mu sync.Mutex
	m  map[versionKey]string
}

const maxSums = 1 << 16

var sums sumCache

func (c *sumCache) get(k versionKey) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k]
	return s, ok
}

func (c *sumCache) put(k versionKey, sum string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxSums {
		c.m = make(map[versionKey]string)
	}
	c.m[k] = sum
}
