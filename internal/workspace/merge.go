package workspace

import (
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
