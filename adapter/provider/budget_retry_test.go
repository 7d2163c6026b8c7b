package provider

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// attemptMeter is an engine.Meter that records how a request's attempts ended, and refuses
// the retries after the first refuse of them.
type attemptMeter struct {
	mu     sync.Mutex
	events []string
	refuse int // Again refuses from this call on (counted from 1); 0: never
	agains int
}

func (m *attemptMeter) add(e string) {
	m.mu.Lock()
	m.events = append(m.events, e)
	m.mu.Unlock()
}

func (m *attemptMeter) Billed()   { m.add("billed") }
func (m *attemptMeter) Unbilled() { m.add("unbilled") }
func (m *attemptMeter) Again(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.agains++
	if m.refuse > 0 && m.agains >= m.refuse {
		m.events = append(m.events, "refused")
		return fmt.Errorf("%w: no room", engine.ErrBudget)
	}
	m.events = append(m.events, "again")
	return nil
}

func (m *attemptMeter) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.events, " ")
}

// TestBudgetChargesBilledAttempts: each failed attempt of a request is charged its bound
// unless the provider's answer proves it was not billed, and each retry reserves the bound
// again before it goes: a reply cut mid-body, a 5xx and a timeout may have been billed; a
// refused connection, a 429 and a 400 were not. A retry the budget refuses does not go,
// and the failure says why.
func TestBudgetChargesBilledAttempts(t *testing.T) {
	const reply = `{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`
	cut := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(reply)))
			w.WriteHeader(status)
			w.Write([]byte(reply[:20]))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String() + "/v1"
	closed.Close()
	rows := []struct {
		name    string
		handler http.HandlerFunc // nil: the refused address
		refuse  int
		want    string
		msg     string
	}{
		{"a 200 cut mid-body", cut(200), 0, "billed again billed again billed", "HTTP 200: the reply was cut short"},
		{"a 500 cut mid-body", cut(500), 0, "billed again billed again billed", "HTTP 500: the reply was cut short"},
		{"a 503 whole", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "overloaded", 503) }, 0, "billed again billed again billed", "HTTP 503"},
		{"a 429", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After-Ms", "1")
			http.Error(w, "slow down", 429)
		}, 0, "unbilled again unbilled again unbilled", "HTTP 429"},
		{"a 400, not retried", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad request", 400) }, 0, "unbilled", "HTTP 400"},
		{"a refused connection", nil, 0, "unbilled again unbilled again unbilled", "cannot reach"},
		{"a timeout", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // read whole, the server sees the client close the connection
			<-r.Context().Done()
		}, 0, "billed", "did not answer within"},
		{"a retry the budget refuses", cut(200), 2, "billed again billed refused", "no retry: the budget would be exceeded: no room"},
		{"a success after a cut reply", nil, 0, "billed again", ""},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			url := refused
			var n int
			var mu sync.Mutex
			h := r.handler
			if r.name == "a success after a cut reply" {
				h = func(w http.ResponseWriter, req *http.Request) {
					mu.Lock()
					n++
					first := n == 1
					mu.Unlock()
					if first {
						cut(200)(w, req)
					}
					w.Write([]byte(reply))
				}
			}
			if h != nil {
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				url = srv.URL + "/v1"
			}
			a, _ := oaAdapter(t, Config{BaseURL: url, MaxRetries: 2, Timeout: 200 * time.Millisecond}, oaQATask())
			m := &attemptMeter{refuse: r.refuse}
			out, err := a.Invoke(engine.WithMeter(context.Background(), m), 0, map[string]any{"q": "why?"})
			if got := m.String(); got != r.want {
				t.Errorf("attempts %q, want %q", got, r.want)
			}
			if r.msg == "" {
				oaAnswer(t, out, err)
				return
			}
			if f := oaFailure(t, err); !strings.Contains(f.Message, r.msg) {
				t.Errorf("failure %q, want it to say %q", f.Message, r.msg)
			}
		})
	}
	if m := engine.MeterOf(context.Background()); m == nil || m.Again(context.Background()) != nil {
		t.Error("a run without a budget has a meter that refuses")
	}
}
