package workspace

import (
	"encoding/json"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
	"github.com/benchy-eval/benchy/store"
)

// MergeInto records the merged shards of set as run id of st, a run that is running with
// its total and dataset set, and finishes it with the merged report (the unsharded run's
// but for the fields shard documents). It is the one merge into a store that `benchy
// merge --into-store` (a new run) and the server's cluster executor (the run it created
// before submitting) share. On an error the run's status is left for the caller to set:
// a *shard.Unfinished names the shards to run again.
func MergeInto(st *store.Store, id string, set *shard.Set) (*engine.Report, error) {
	w := st.ResultWriter(id, store.Labels(store.EnumsOf(set.IR)))
	rep, err := set.Report(func(res *engine.ExampleResult) error { return w.Add(*res) })
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = st.Finish(id, rep)
	}
	return rep, err
}

// Merged is the completed run of st the shards of set were merged into before, or "": a
// run of the same IR, dataset, binding and limit whose report lists the same shards
// (shard.Identity: their starts and ends too), so that merging them again adds no twin.
func Merged(st *store.Store, set *shard.Set) (string, error) {
	m := set.Manifests[0]
	runs, err := st.ListRuns(store.Filter{IRHash: m.IRHash, DatasetDigest: m.DatasetDigest, Status: store.Completed}, 10000)
	if err != nil {
		return "", err
	}
	want := shard.Identity(set.ShardRuns())
	for _, r := range runs {
		var rep struct {
			Shards []engine.ShardRun `json:"shards"`
		}
		if r.Binding != m.Binding || r.Options.Limit != m.Limit || len(r.Report) == 0 || json.Unmarshal(r.Report, &rep) != nil || len(rep.Shards) == 0 {
			continue
		}
		if shard.Identity(rep.Shards) == want {
			return r.ID, nil
		}
	}
	return "", nil
}
