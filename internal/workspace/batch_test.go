package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// fastPolls polls a batch every few milliseconds.
var fastPolls = provider.BatchConfig{On: true, PollMin: time.Millisecond, PollMax: 5 * time.Millisecond}

// batchRun is a workspace of n model examples ("review I"; "bad I" for each I%7 == 3, which
// the stub refuses with a 400) bound to the stub srv, with a store and a run in it.
type batchRun struct {
	ws  string
	st  *store.Store
	srv *batchstub.Server
	n   int
	obs Observer // what the batch phase tells
}

func newBatchRun(t testing.TB, n int, anthropic bool) *batchRun {
	ws := t.TempDir()
	var rows strings.Builder
	for i := range n {
		text := fmt.Sprintf("review %d", i)
		if i%7 == 3 {
			text = fmt.Sprintf("bad %d", i)
		}
		fmt.Fprintf(&rows, `{"input": {"text": %q}, "expected": {"name": "text: review %d"}}`+"\n", text, i)
	}
	if err := os.WriteFile(filepath.Join(ws, "data.jsonl"), []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := batchstub.New(anthropic)
	echo := batchstub.Echo(anthropic)
	srv.Answer = func(body []byte) (int, []byte) {
		if strings.Contains(string(body), "text: bad") {
			if anthropic {
				return 400, []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"this input is refused"}}`)
			}
			return 400, []byte(`{"error":{"message":"this input is refused","type":"invalid_request_error"}}`)
		}
		return echo(body)
	}
	t.Cleanup(srv.Close)
	st, err := store.Open(store.Path(ws))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &batchRun{ws: ws, st: st, srv: srv, n: n}
}

// plan is the benchmark bound to the stub, through its batch API when batch.On.
func (r *batchRun) plan(t testing.TB, batch provider.BatchConfig) *Plan {
	p, err := Prepare(Source{Name: "b.yaml", Text: []byte(modelSystem)}, Setup{Dir: r.ws, Paths: engine.Paths{Workspace: r.ws},
		Runtime: runtime(t.(*testing.T), "providers:\n  local:\n    kind: openai\n    base_url: http://127.0.0.1:1/v1\n")})
	if err != nil {
		t.Fatal(err)
	}
	cfg := provider.Config{Name: "local", Kind: provider.KindOpenAI, BaseURL: r.srv.URL + "/v1", Batch: batch}
	if r.srv.Anthropic {
		cfg.Kind, cfg.BaseURL = provider.KindAnthropic, r.srv.URL
	}
	task := provider.Task{System: p.IR.AISystem, Input: p.IR.Program.Input, Output: p.IR.Program.Output}
	if p.Factory, err = provider.NewFactory(cfg, task, os.Getenv); err != nil {
		t.Fatal(err)
	}
	return p
}

// newRun records a new run of p, running.
func (r *batchRun) newRun(t testing.TB, p *Plan) Record {
	run, err := r.st.CreateRun(p.Spec("b.yaml", store.Options{}))
	if err != nil || r.st.MarkRunning(run.ID, 0) != nil {
		t.Fatal(err)
	}
	return Record{Store: r.st, ID: run.ID}
}

// execute runs p as the run service does, with the batch phase first, and returns its
// results by index, their latency zeroed.
func (r *batchRun) execute(t testing.TB, ctx context.Context, p *Plan, rec Record, opts Options) ([]engine.ExampleResult, End) {
	f, err := Batch(ctx, p, opts, rec, r.obs)
	if err != nil {
		return nil, Ending(ctx, nil, err, nil)
	}
	p.Factory = f
	res := make([]engine.ExampleResult, r.n)
	end := Execute(ctx, p, opts, rec, Observer{Result: func(x engine.ExampleResult, _ bool) {
		if x.Usage != nil {
			x.Usage.LatencyMS = 0
		}
		res[x.Index] = x
	}})
	return res, end
}

// TestBatchEqualsSync: a run through OpenAI's Batch API and one through Anthropic's
// Message Batches give the results the synchronous run gives against the same server,
// its partial failures (a 400 for some requests) as the same provider_errors; the batch
// run sends no synchronous request and the requests go in batches within the limit
// (MaxRequests 20: 50 examples in 3 batches).
func TestBatchEqualsSync(t *testing.T) {
	for _, anthropic := range []bool{false, true} {
		t.Run(map[bool]string{false: "openai", true: "anthropic"}[anthropic], func(t *testing.T) {
			r := newBatchRun(t, 50, anthropic)
			sync := r.plan(t, provider.BatchConfig{})
			want, end := r.execute(t, context.Background(), sync, r.newRun(t, sync), Options{Concurrency: 4})
			if end.Status != store.Completed {
				t.Fatalf("sync: %+v", end)
			}
			calls := r.srv.Count("sync")
			cfg := fastPolls
			cfg.MaxRequests = 20
			p := r.plan(t, cfg)
			rec := r.newRun(t, p)
			got, end := r.execute(t, context.Background(), p, rec, Options{Concurrency: 4})
			if end.Status != store.Completed {
				t.Fatalf("batch: %+v", end)
			}
			if n := r.srv.Count("sync"); n != calls {
				t.Errorf("the batch run sent %d synchronous requests", n-calls)
			}
			if n := r.srv.Count("create"); n != 3 {
				t.Errorf("%d batches created, want 3", n)
			}
			failed := 0
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					g, _ := json.Marshal(got[i])
					w, _ := json.Marshal(want[i])
					t.Fatalf("example %d:\nbatch %s\nsync  %s", i, g, w)
				}
				if want[i].Status == engine.StatusExecutionError {
					failed++
				}
			}
			if failed != 7 || want[0].Status != engine.StatusValid {
				t.Errorf("%d failures, example 0 %s: the stub's partial failures are not there", failed, want[0].Status)
			}
			batches, err := r.st.Batches(rec.ID)
			if err != nil || len(batches) != 3 || batches[0].Requests != 20 || batches[2].Requests != 10 {
				t.Fatalf("stored batches %+v, %v", batches, err)
			}
		})
	}
}

// TestBatchResumeKeepsPolling: a run stopped while its batches are in progress (a
// shutdown) leaves them running and recorded; started again, it polls them and submits
// nothing again, and its results come from them.
func TestBatchResumeKeepsPolling(t *testing.T) {
	for _, anthropic := range []bool{false, true} {
		t.Run(map[bool]string{false: "openai", true: "anthropic"}[anthropic], func(t *testing.T) {
			r := newBatchRun(t, 12, anthropic)
			r.srv.Hold = true
			p := r.plan(t, fastPolls)
			rec := r.newRun(t, p)
			stop := make(chan struct{})
			go func() {
				for r.srv.Count("poll") < 3 {
					time.Sleep(time.Millisecond)
				}
				close(stop)
			}()
			_, end := r.execute(t, context.Background(), p, rec, Options{Stop: stop})
			if end.Status != store.Interrupted || r.srv.Count("create") != 1 || r.srv.Count("cancel") != 0 {
				t.Fatalf("stopped: %+v, %d creates, %d cancels", end, r.srv.Count("create"), r.srv.Count("cancel"))
			}
			batches, _ := r.st.Batches(rec.ID)
			if len(batches) != 1 || batches[0].State != "in_progress" || batches[0].PolledAt == "" {
				t.Fatalf("stored while waiting: %+v", batches)
			}
			r.srv.Release()
			got, end := r.execute(t, context.Background(), r.plan(t, fastPolls), rec, Options{})
			if end.Status != store.Completed || r.srv.Count("create") != 1 || r.srv.Count("sync") != 0 {
				t.Fatalf("resumed: %+v, %d creates, %d sync", end, r.srv.Count("create"), r.srv.Count("sync"))
			}
			if got[0].Status != engine.StatusValid || errCode(got[3]) != diag.ProviderError {
				t.Errorf("results %+v %+v", got[0], got[3])
			}
		})
	}
}

// TestBatchCancel: a user's cancel while the batch runs cancels it at the provider, marked
// as the run's doing, tells so (the line a CLI prints), and ends the run cancelled; its
// resume keeps what the cancelled batch answered (its first 2 requests), sends the other 3
// again in a new batch and waits for it: every result is the one a batch run that was not
// cancelled gives, none "was cancelled".
func TestBatchCancel(t *testing.T) {
	for _, anthropic := range []bool{false, true} {
		t.Run(map[bool]string{false: "openai", true: "anthropic"}[anthropic], func(t *testing.T) {
			r := newBatchRun(t, 5, anthropic)
			r.srv.Hold, r.srv.CancelKeeps = true, 2
			var told []provider.BatchInfo
			r.obs.Batches = func(bs []provider.BatchInfo) {
				for _, b := range bs {
					if b.JustCancelled {
						told = append(told, b)
					}
				}
			}
			p := r.plan(t, fastPolls)
			rec := r.newRun(t, p)
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				for r.srv.Count("poll") < 3 {
					time.Sleep(time.Millisecond)
				}
				cancel(ErrCancelled)
			}()
			_, end := r.execute(t, ctx, p, rec, Options{})
			if end.Status != store.Cancelled || r.srv.Count("cancel") != 1 {
				t.Fatalf("%+v, %d cancels", end, r.srv.Count("cancel"))
			}
			batches, _ := r.st.Batches(rec.ID)
			if len(batches) != 1 || !strings.HasPrefix(batches[0].State, "cancel") || !strings.Contains(string(batches[0].Detail), `"cancelled_by_us":true`) {
				t.Fatalf("stored after the cancel: %+v", batches)
			}
			if len(told) != 1 || told[0].ID != batches[0].ID || told[0].Run != rec.ID {
				t.Errorf("told of the cancel: %+v", told)
			}
			r.srv.Release()
			r.obs = Observer{}
			got, end := r.execute(t, context.Background(), r.plan(t, fastPolls), rec, Options{})
			if end.Status != store.Completed || r.srv.Count("create") != 2 {
				t.Fatalf("resumed: %+v, %d batches created, want 2", end, r.srv.Count("create"))
			}
			batches, _ = r.st.Batches(rec.ID)
			if len(batches) != 2 || batches[1].Requests != 3 {
				t.Fatalf("batches after the resume: %+v, want the 3 unanswered sent again", batches)
			}
			for i, x := range got {
				if x.Error != nil && strings.Contains(x.Error.Message, "cancelled") {
					t.Fatalf("example %d: %+v", i, x)
				}
				if want := map[bool]engine.Status{true: engine.StatusExecutionError, false: engine.StatusValid}[i == 3]; x.Status != want {
					t.Errorf("example %d: %s, want %s (%+v)", i, x.Status, want, x.Error)
				}
			}
		})
	}
}

// TestBatchCancelledElsewhere: a batch cancelled by someone else (at the provider's
// console) is not sent again: what it did not process fails saying it was cancelled.
func TestBatchCancelledElsewhere(t *testing.T) {
	r := newBatchRun(t, 4, false)
	r.srv.Hold, r.srv.CancelKeeps = true, 1
	p := r.plan(t, fastPolls)
	rec := r.newRun(t, p)
	go func() {
		for r.srv.Count("poll") < 2 {
			time.Sleep(time.Millisecond)
		}
		resp, err := http.Post(r.srv.URL+"/v1/batches/batch_2/cancel", "application/json", nil)
		if err == nil {
			resp.Body.Close()
		}
	}()
	got, end := r.execute(t, context.Background(), p, rec, Options{})
	if end.Status != store.Completed || r.srv.Count("create") != 1 {
		t.Fatalf("%+v, %d creates", end, r.srv.Count("create"))
	}
	if got[0].Status != engine.StatusValid {
		t.Errorf("example 0, processed before the cancel: %+v", got[0])
	}
	for _, x := range got[1:] {
		if x.Error == nil || !strings.Contains(x.Error.Message, "was cancelled") {
			t.Errorf("example %d: %+v", x.Index, x)
		}
	}
}

// TestBatchOverdue: a batch that has not ended MaxAge after its submission is no longer
// waited for: it is cancelled at the provider and its requests fail as an expired batch's,
// the run completing (it was polled forever).
func TestBatchOverdue(t *testing.T) {
	r := newBatchRun(t, 3, false)
	r.srv.Hold = true
	cfg := fastPolls
	cfg.MaxAge = 50 * time.Millisecond
	p := r.plan(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, end := r.execute(t, ctx, p, r.newRun(t, p), Options{})
	if end.Status != store.Completed || r.srv.Count("cancel") != 1 {
		t.Fatalf("%+v, %d cancels", end, r.srv.Count("cancel"))
	}
	for _, x := range got {
		if errCode(x) != diag.ProviderError || !strings.Contains(x.Error.Message, "had not ended a day after it was submitted") {
			t.Errorf("example %d: %+v", x.Index, x)
		}
	}
}

// TestBatchRefused: a provider that refuses the batch's upload or creation (a 4xx) aborts
// the run, phase setup, provider_error, with its message: a resume would be refused again.
// A 5xx after the retries leaves it interrupted, for a resume to try again.
func TestBatchRefused(t *testing.T) {
	for _, tt := range []struct {
		name      string
		anthropic bool
		path      string
		status    int
		want      store.Status
	}{
		{"upload 400", false, "/v1/files", 400, store.Aborted},
		{"create 400", false, "/v1/batches", 400, store.Aborted},
		{"create 401", true, "/v1/messages/batches", 401, store.Aborted},
		{"create 503", false, "/v1/batches", 503, store.Interrupted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newBatchRun(t, 3, tt.anthropic)
			stub := r.srv.Config.Handler
			r.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, q *http.Request) {
				if q.Method == "POST" && q.URL.Path == tt.path {
					http.Error(w, `{"error":{"message":"model gpt-nope does not exist"}}`, tt.status)
					return
				}
				stub.ServeHTTP(w, q)
			})
			p := r.plan(t, fastPolls)
			rec := r.newRun(t, p)
			_, end := r.execute(t, context.Background(), p, rec, Options{})
			if end.Status != tt.want {
				t.Fatalf("%s, want %s: %v", end.Status, tt.want, end.Err)
			}
			var abort *engine.Abort
			if tt.want == store.Aborted && (!errors.As(end.Err, &abort) || abort.Diagnostic.Code != diag.ProviderError ||
				abort.Diagnostic.Phase != engine.PhaseSetup || !strings.Contains(abort.Diagnostic.Message, "gpt-nope does not exist")) {
				t.Errorf("abort %+v", end.Err)
			}
		})
	}
}

// TestBatchExpired: a batch that expired gives the requests it processed their answers,
// and the others an execution_error saying it expired.
func TestBatchExpired(t *testing.T) {
	for _, anthropic := range []bool{false, true} {
		t.Run(map[bool]string{false: "openai", true: "anthropic"}[anthropic], func(t *testing.T) {
			r := newBatchRun(t, 6, anthropic)
			r.srv.Expire = 2
			p := r.plan(t, fastPolls)
			got, end := r.execute(t, context.Background(), p, r.newRun(t, p), Options{})
			if end.Status != store.Completed {
				t.Fatalf("%+v", end)
			}
			for i, x := range got {
				switch {
				case i < 2 && x.Status != engine.StatusValid:
					t.Errorf("example %d processed before the expiry: %+v", i, x)
				case i >= 2 && (errCode(x) != diag.ProviderError || !strings.Contains(x.Error.Message, "expired")):
					t.Errorf("example %d after the expiry: %+v", i, x)
				}
			}
		})
	}
}

// errCode is a result's error code, "" for none.
func errCode(x engine.ExampleResult) diag.Code {
	if x.Error == nil {
		return ""
	}
	return x.Error.Code
}

// TestBatch10k: a bar-style run of 10,000 examples through OpenAI's Batch API, end to end
// through the run service with the real store: split into batches of 2,500, every result
// stored, the failures the stub refuses kept as provider_errors.
func TestBatch10k(t *testing.T) {
	const n = 10_000
	r := newBatchRun(t, n, false)
	cfg := fastPolls
	cfg.MaxRequests = 2500
	p := r.plan(t, cfg)
	rec := r.newRun(t, p)
	start := time.Now()
	got, end := r.execute(t, context.Background(), p, rec, Options{Concurrency: 8})
	took := time.Since(start)
	if end.Status != store.Completed || end.Report.Summary.Examples != n || end.Report.Summary.ExecutionErrors != 1429 {
		t.Fatalf("%+v", end)
	}
	if r.srv.Count("create") != 4 || r.srv.Count("sync") != 0 {
		t.Fatalf("%d batches, %d synchronous requests", r.srv.Count("create"), r.srv.Count("sync"))
	}
	if got[n-2].Status != engine.StatusValid || errCode(got[n-1]) != diag.ProviderError {
		t.Errorf("%+v %+v", got[n-2], got[n-1])
	}
	if run, err := r.st.GetRun(rec.ID); err != nil || run.Done != n {
		t.Errorf("stored %+v, %v", run, err)
	}
	t.Logf("%d examples through the batch path in %s (%.0f examples/s)", n, took.Round(time.Millisecond), n/took.Seconds())
}
