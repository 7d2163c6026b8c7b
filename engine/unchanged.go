package engine

import "path/filepath"

// A validation's digest names the exam as its files stood then. A caller that keeps it
// (the server shows rows and boards of a dataset "as it stands now") asks Unchanged
// before trusting it again: one stat per file, where validating again reads every byte.

// Files is how many files Unchanged stats: the JSONL file and each artifact digested.
// It is 0 when v cannot say it is unchanged: more artifacts than a validation remembers
// (maxSeen, maxSeenBytes), or no file versions to compare (outside Linux); then only
// validating again tells.
func (v Validated) Files() int {
	if v.file == (versionKey{}) || v.artifacts == nil || !filepath.IsAbs(v.jsonl) {
		return 0
	}
	return 1 + len(v.artifacts)
}

// Unchanged says whether every file v's digest was made of is still the version digested
// (device, inode, size, modification and change times: the change time moves on any
// write and cannot be set back), so that the digest still names the dataset as it stands.
// It is false when v cannot tell (Files is 0), and when a version was too recent to
// vouch for when it was read (within fileKey's racy window), so a file rewritten at once
// in the same clock tick is never taken for unchanged.
func (v Validated) Unchanged() bool {
	if v.Files() == 0 || v.racy || pathVersion(v.jsonl) != v.file {
		return false
	}
	for _, a := range v.artifacts {
		if pathVersion(a.path) != a.key {
			return false
		}
	}
	return true
}

// versions are the artifact versions v was digested from, for the second pass of a run
// to check that the adapters are given those (nil: not checked).
func (v Validated) versions() map[versionKey]struct{} {
	if v.artifacts == nil {
		return nil
	}
	set := make(map[versionKey]struct{}, len(v.artifacts))
	for _, a := range v.artifacts {
		set[a.key] = struct{}{}
	}
	return set
}
