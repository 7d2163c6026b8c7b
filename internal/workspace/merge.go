package workspace

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/shard"
	"github.com/benchy-eval/benchy/store"
)

// MergeInto records the merged shards of set, held to want, in st: run gives the id of a
// run that is running with its total and dataset set, and is called only once every
// manifest and line was checked (set.Report, a first reading that stores nothing), so that
// shards refused leave no run behind; then the shards are read again into it, checked
// again, and the run finished with the merged report (the unsharded run's but for the
// fields shard documents). It is the one merge into a store that `benchy merge
// --into-store` (a new run) and the server's cluster executor (the run it created before
// submitting) share. On an error after run was called the run's status is left for the
// caller to set (Refusal says how): a *shard.Unfinished names the shards to run again. A
// set the caller checked against want already (to look it up with Merged) is not read a
// second time before run is called.
func MergeInto(st *store.Store, run func() (string, error), set *shard.Set, want *shard.Want) (id string, rep *engine.Report, err error) {
	if !set.Checked(want) {
		if _, err := set.Report(want, nil); err != nil {
			return "", nil, err
		}
	}
	if id, err = run(); err != nil {
		return "", nil, err
	}
	w := st.ResultWriter(id, store.Labels(store.EnumsOf(want.IR)))
	rep, err = set.Report(want, func(res *engine.ExampleResult) error { return w.Add(*res) })
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = st.Finish(id, rep)
	}
	return id, rep, err
}

// Refusal is the abort of a merge that err refused because the shards are not the run's
// (another benchmark, AI-system, binding or dataset: a *shard.Mismatch) or hold a line
// that does not score as the benchmark does, or nil for any other error (shards missing,
// or the machine's trouble), after which the run may go on.
func Refusal(err error) *engine.Abort {
	var m *shard.Mismatch
	var un *shard.Unfinished
	var a *engine.Abort
	switch {
	case errors.As(err, &m):
		return m.Abort()
	case errors.As(err, &un) && un.Damaged():
		return un.Abort()
	case errors.As(err, &a):
		return a
	}
	return nil
}

// WantOf is what the shards of a run of plan must have run: the benchmark as it now is in
// the workspace, bound as a run of it would be.
func WantOf(plan *Plan) *shard.Want {
	return &shard.Want{IR: plan.IR, IRHash: plan.IRHash, BenchmarkHash: plan.BenchmarkHash, System: plan.System,
		Binding: plan.Binding, Dir: plan.BenchmarkDir, Paths: plan.Paths}
}

// WantRun is what the shards of stored run must have run: the run as it was created, its
// benchmark's folder dir (its dataset read within paths), so that a benchmark saved again
// since (another AI-system, say) refuses its shards rather than recording one system's
// results as another's.
func WantRun(run store.Run, dir string, paths engine.Paths) (*shard.Want, error) {
	canon, err := ir.Canonicalize(run.IR)
	if err != nil {
		return nil, err
	}
	b, err := ir.Unmarshal(canon)
	if err != nil {
		return nil, err
	}
	w := &shard.Want{IR: b, IRHash: run.IRHash, BenchmarkHash: run.BenchmarkHash, Binding: run.Binding, DatasetDigest: run.DatasetDigest,
		Limit: run.Options.Limit, Total: run.Total, Dir: dir, Paths: paths}
	if run.System != nil {
		w.System = *run.System
	}
	return w, nil
}

// Merged is what st holds of the shards of set, once set.Report has read their lines
// into rep: same, the completed run they were merged into before, so that merging them
// again adds no twin: a run of the same IR, dataset, binding and limit whose report lists
// the same shards (shard.Identity: their starts and ends too) and whose results are the
// same lines (shard.StoredDigest); and other, such a run whose results are other lines.
// Manifests alone would let a merge of edited journals, kept beside the shards' own
// manifests, pass for the shards' merge; one of the two merges had its journals edited,
// which the caller says. The report a run stored is rep's JSON when its lines are these,
// so only a run whose report is that is read again, result by result (as store.Stored
// decodes them, about 10 µs a result).
func Merged(st *store.Store, set *shard.Set, rep *engine.Report) (same, other string, err error) {
	digest := set.Digest()
	if digest == "" {
		return "", "", errors.New("the shards are looked up in a store once their lines were checked")
	}
	body, err := json.Marshal(rep)
	if err != nil {
		return "", "", err
	}
	m := set.Manifests[0]
	runs, err := st.ListRuns(store.Filter{IRHash: m.IRHash, DatasetDigest: m.DatasetDigest, Status: store.Completed}, 10000)
	if err != nil {
		return "", "", err
	}
	want := shard.Identity(set.ShardRuns())
	for _, r := range runs {
		var head struct {
			Shards []engine.ShardRun `json:"shards"`
		}
		if r.Binding != m.Binding || r.Options.Limit != m.Limit || len(r.Report) == 0 || json.Unmarshal(r.Report, &head) != nil || len(head.Shards) == 0 {
			continue
		}
		if shard.Identity(head.Shards) != want {
			continue
		}
		if bytes.Equal(r.Report, body) {
			d, err := shard.StoredDigest(st.Stored(r.ID))
			if err != nil {
				return "", "", err
			}
			if d == digest {
				return r.ID, "", nil
			}
		}
		if other == "" {
			other = r.ID
		}
	}
	return "", other, nil
}
