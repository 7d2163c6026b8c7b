package store

import (
	"reflect"
	"testing"
)

// TestBatches: a run's batches are listed in the order submitted with what their last
// poll said; each example's reply or failure is kept once (a later one replaces it), read
// back as stored, and listed in index order; another run sees none of them.
func TestBatches(t *testing.T) {
	s, _ := open(t)
	run, other := create(t, s, "a.yaml").ID, create(t, s, "b.yaml").ID
	for _, id := range []string{"batch_2", "batch_1"} {
		if err := s.AddBatch(run, Batch{ID: id, Provider: "p", Kind: "openai", State: "validating", Requests: 3, Detail: []byte(`{"indices":[[0,2]]}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.UpdateBatch(run, "batch_1", "completed", []byte(`{"stored":true}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateBatch(run, "nope", "completed", nil); err == nil {
		t.Error("updating a batch the run does not have succeeded")
	}
	got, err := s.Batches(run)
	if err != nil || len(got) != 2 || got[0].ID != "batch_2" || got[1].State != "completed" || string(got[1].Detail) != `{"stored":true}` ||
		got[0].PolledAt != "" || got[1].PolledAt == "" || got[0].Requests != 3 || got[0].Kind != "openai" {
		t.Fatalf("%+v, %v", got, err)
	}
	if none, err := s.Batches(other); err != nil || len(none) != 0 {
		t.Errorf("another run's batches: %+v, %v", none, err)
	}
	if err := s.PutBatchReplies(run, "batch_1", []BatchReply{{Index: 2, Reply: []byte(`{"a":1}`)}, {Index: 0, Error: "HTTP 400: no"}, {Index: 1, Reply: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBatchReplies(run, "batch_2", []BatchReply{{Index: 1, Error: "expired"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		index int
		reply string
		msg   string
		ok    bool
	}{{2, `{"a":1}`, "", true}, {0, "", "HTTP 400: no", true}, {1, "", "expired", true}, {3, "", "", false}} {
		reply, msg, ok, err := s.Replies(run).BatchReply(c.index)
		if err != nil || string(reply) != c.reply || msg != c.msg || ok != c.ok || c.msg != "" && reply != nil {
			t.Errorf("example %d: %q %q %v %v", c.index, reply, msg, ok, err)
		}
	}
	var idx []int
	if err := s.BatchReplied(run, func(i int) { idx = append(idx, i) }); err != nil || !reflect.DeepEqual(idx, []int{0, 1, 2}) {
		t.Errorf("replied %v, %v", idx, err)
	}
	if _, _, ok, _ := s.BatchReply(other, 2); ok {
		t.Error("another run sees this run's reply")
	}
}
