package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestBatchCancelResume: a run cancelled while its batch is in progress cancels the batch
// at the provider; its resume keeps what the batch answered (its first request) and sends
// the other two again in a new batch: the run completes with every example valid, none
// failed as "cancelled" (the server's runs go through workspace.Execute as benchy run's).
func TestBatchCancelResume(t *testing.T) {
	stub := batchstub.New(false)
	stub.Hold, stub.CancelKeeps = true, 1
	t.Cleanup(stub.Close)
	_, srv := serve(t, Config{Workspace: batchWorkspace(t, stub.URL, 3)})
	id := startRun(t, srv, `{"benchmark": "names/benchmark.yaml"}`)
	waitRun(t, srv, id, "waiting for its batch", func(v api.Run) bool { return v.Waiting != nil })
	if r := call(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}"); r.status/100 != 2 {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	waitStatus(t, srv, id, store.Cancelled)
	if stub.Count("cancel") != 1 {
		t.Fatalf("%d cancels at the provider, want 1", stub.Count("cancel"))
	}
	stub.Release()
	if r := call(t, srv, "POST", "/api/runs/"+id+"/resume", "{}"); r.status/100 != 2 {
		t.Fatalf("resume: %d %s", r.status, r.body)
	}
	v := waitRun(t, srv, id, "finished again", func(v api.Run) bool { return v.FinishedAt != nil && v.Status != api.Cancelled })
	if v.Status != api.Completed || v.Summary == nil || v.Summary.Valid != 3 {
		t.Fatalf("resumed: %s %+v %+v, want completed, 3 valid", v.Status, v.Summary, v.Error)
	}
	if len(v.Batches) != 2 || v.Batches[1].Requests != 2 || stub.Count("create") != 2 {
		t.Errorf("batches %+v (%d created), want the 2 unanswered sent again in a second", v.Batches, stub.Count("create"))
	}
}

// TestBatchRefusedAborts: a provider that refuses the batch's creation (HTTP 400) aborts
// the server's run at setup with provider_error and the provider's message, rather than
// leaving it interrupted for a resume that would be refused again.
func TestBatchRefusedAborts(t *testing.T) {
	stub := batchstub.New(false)
	t.Cleanup(stub.Close)
	h := stub.Config.Handler
	stub.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && r.URL.Path == "/v1/batches" {
			http.Error(w, `{"error":{"message":"model m does not support the batch API"}}`, http.StatusBadRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
	_, srv := serve(t, Config{Workspace: batchWorkspace(t, stub.URL, 3)})
	id := startRun(t, srv, `{"benchmark": "names/benchmark.yaml"}`)
	v := waitRun(t, srv, id, "ended", func(v api.Run) bool { return v.FinishedAt != nil || v.Status == api.Interrupted })
	if v.Status != api.Aborted || v.Error == nil || v.Error.Code != "provider_error" || v.Error.Phase != "setup" ||
		!strings.Contains(v.Error.Message, "does not support the batch API") {
		t.Fatalf("%s, error %+v: want aborted, setup provider_error with the provider's message", v.Status, v.Error)
	}
}
