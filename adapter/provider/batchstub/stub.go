package batchstub

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// Server is a stub provider. Set its fields before the first request.
type Server struct {
	*httptest.Server
	// Anthropic makes it speak Anthropic's protocol; OpenAI's otherwise.
	Anthropic bool
	// Answer is the provider's answer to one request body (a chat completion's or a
	// message's): its HTTP status and body. nil: Echo.
	Answer func(body []byte) (int, []byte)
	// Hold keeps every batch in progress until Release.
	Hold bool
	// Expire, when set, ends every batch expired after its first Expire requests.
	Expire int
	// CancelKeeps is how many requests a cancelled batch had processed: its first ones,
	// answered in its results.
	CancelKeeps int

	mu      sync.Mutex
	files   map[string][]byte
	batches map[string]*batch
	counts  map[string]int // requests by "METHOD path-kind"
	next    int
}

// batch is one batch: its requests' ids and bodies, in order, and how it goes.
type batch struct {
	id        string
	ids       []string
	bodies    [][]byte
	polls     int
	cancelled bool
	ended     bool
	state     string
	out, errs string         // OpenAI: the ids of the output and error files
	counts    map[string]int // the request_counts of an ended batch
	answered  int            // how many of its first requests an ended batch answered
	end       string         // how it ended: completed, expired, cancelled
}

// New starts a stub; Close it when done.
func New(anthropic bool) *Server {
	s := &Server{Anthropic: anthropic, files: map[string][]byte{}, batches: map[string]*batch{}, counts: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Count is how many requests of one kind the stub had: "create", "cancel", "poll",
// "upload", "content", "results", "sync".
func (s *Server) Count(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[kind]
}

// Release lets held batches end at their next poll.
func (s *Server) Release() {
	s.mu.Lock()
	s.Hold = false
	s.mu.Unlock()
}

// Echo answers a request with the output {"name": "<the last text the request holds>"}, as
// a chat completion or a message with a tool call, with token counts from its length.
func Echo(anthropic bool) func([]byte) (int, []byte) {
	return func(body []byte) (int, []byte) {
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		json.Unmarshal(body, &req)
		text := ""
		if n := len(req.Messages); n > 0 {
			var parts []struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(req.Messages[n-1].Content, &parts) == nil && len(parts) > 0 {
				text = parts[len(parts)-1].Text
			}
		}
		out, _ := json.Marshal(map[string]string{"name": text})
		if anthropic {
			reply, _ := json.Marshal(map[string]any{"type": "message", "role": "assistant", "stop_reason": "tool_use",
				"content": []any{map[string]any{"type": "tool_use", "id": "t", "name": "benchy_output", "input": json.RawMessage(out)}},
				"usage":   map[string]int{"input_tokens": len(body) / 4, "output_tokens": len(out) / 4}})
			return 200, reply
		}
		reply, _ := json.Marshal(map[string]any{"object": "chat.completion",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(out)}}},
			"usage":   map[string]int{"prompt_tokens": len(body) / 4, "completion_tokens": len(out) / 4}})
		return 200, reply
	}
}

func (s *Server) answer(body []byte) (int, []byte) {
	if s.Answer != nil {
		return s.Answer(body)
	}
	return Echo(s.Anthropic)(body)
}

func (s *Server) count(kind string) {
	s.mu.Lock()
	s.counts[kind]++
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case r.Method == "POST" && (p == "/v1/chat/completions" || p == "/v1/messages"):
		s.count("sync")
		body, _ := io.ReadAll(r.Body)
		status, reply := s.answer(body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(reply)
	case r.Method == "POST" && p == "/v1/files":
		s.upload(w, r)
	case r.Method == "POST" && (p == "/v1/batches" || p == "/v1/messages/batches"):
		s.create(w, r)
	case r.Method == "GET" && strings.HasPrefix(p, "/v1/files/") && strings.HasSuffix(p, "/content"):
		s.count("content")
		id := strings.TrimSuffix(strings.TrimPrefix(p, "/v1/files/"), "/content")
		s.mu.Lock()
		data, ok := s.files[id]
		var of *batch
		for _, b := range s.batches {
			if id != "" && (b.out == id || b.errs == id) {
				of = b
			}
		}
		s.mu.Unlock()
		switch {
		case ok:
			w.Write(data)
		case of != nil && of.out == id:
			s.results(of, w, io.Discard)
		case of != nil:
			s.results(of, io.Discard, w)
		default:
			http.Error(w, `{"error":{"message":"no such file"}}`, 404)
		}
	case r.Method == "GET" && strings.HasPrefix(p, "/v1/messages/batches/") && strings.HasSuffix(p, "/results"):
		s.count("results")
		s.mu.Lock()
		b, ok := s.batches[strings.TrimSuffix(strings.TrimPrefix(p, "/v1/messages/batches/"), "/results")]
		ended := ok && b.ended
		s.mu.Unlock()
		if !ended {
			http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"no results"}}`, 404)
			return
		}
		s.results(b, w, io.Discard)
	case r.Method == "POST" && strings.HasSuffix(p, "/cancel"):
		s.count("cancel")
		s.withBatch(w, strings.TrimSuffix(p, "/cancel"), func(b *batch) { b.cancelled = true })
	case r.Method == "GET" && (strings.HasPrefix(p, "/v1/batches/") || strings.HasPrefix(p, "/v1/messages/batches/")):
		s.count("poll")
		s.withBatch(w, p, func(b *batch) { b.polls++ })
	default:
		http.Error(w, `{"error":{"message":"no such endpoint"}}`, 404)
	}
}

// upload keeps a multipart upload with purpose "batch" (the Files API).
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	s.count("upload")
	if err := r.ParseMultipartForm(1 << 20); err != nil || r.FormValue("purpose") != "batch" {
		http.Error(w, `{"error":{"message":"want a multipart form with purpose batch and a file"}}`, 400)
		return
	}
	f, _, err := r.FormFile("file")
	if err != nil {
		http.Error(w, `{"error":{"message":"no file"}}`, 400)
		return
	}
	data, _ := io.ReadAll(f)
	s.mu.Lock()
	s.next++
	id := "file-" + strconv.Itoa(s.next)
	s.files[id] = data
	s.mu.Unlock()
	fmt.Fprintf(w, `{"id":%q,"object":"file","purpose":"batch","bytes":%d}`, id, len(data))
}

// create makes a batch: OpenAI's from an uploaded file of request input objects, checked
// as the Batch API checks them (POST, the batch's endpoint, unique custom_ids), Anthropic's
// from its requests.
func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	s.count("create")
	body, _ := io.ReadAll(r.Body)
	b := &batch{}
	if s.Anthropic {
		var req struct {
			Requests []struct {
				CustomID string          `json:"custom_id"`
				Params   json.RawMessage `json:"params"`
			} `json:"requests"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Requests) == 0 {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad requests"}}`, 400)
			return
		}
		for _, q := range req.Requests {
			b.ids, b.bodies = append(b.ids, q.CustomID), append(b.bodies, q.Params)
		}
	} else {
		var req struct {
			InputFileID, Endpoint, CompletionWindow string
		}
		var raw map[string]string
		json.Unmarshal(body, &raw)
		req.InputFileID, req.Endpoint, req.CompletionWindow = raw["input_file_id"], raw["endpoint"], raw["completion_window"]
		s.mu.Lock()
		data, ok := s.files[req.InputFileID]
		s.mu.Unlock()
		if !ok || req.Endpoint != "/v1/chat/completions" || req.CompletionWindow != "24h" {
			http.Error(w, `{"error":{"message":"want input_file_id, endpoint /v1/chat/completions, completion_window 24h"}}`, 400)
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var line struct {
				CustomID string          `json:"custom_id"`
				Method   string          `json:"method"`
				URL      string          `json:"url"`
				Body     json.RawMessage `json:"body"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Method != "POST" || line.URL != "/v1/chat/completions" || len(line.Body) == 0 {
				http.Error(w, `{"error":{"message":"a line is not a request input object"}}`, 400)
				return
			}
			b.ids, b.bodies = append(b.ids, line.CustomID), append(b.bodies, line.Body)
		}
	}
	seen := map[string]bool{}
	for _, id := range b.ids {
		if seen[id] {
			http.Error(w, `{"error":{"message":"duplicate custom_id"}}`, 400)
			return
		}
		seen[id] = true
	}
	s.mu.Lock()
	s.next++
	b.id = "batch_" + strconv.Itoa(s.next)
	b.state = "validating"
	if s.Anthropic {
		b.state = "in_progress"
	}
	s.batches[b.id] = b
	s.mu.Unlock()
	s.withBatch(w, "/"+b.id, func(*batch) {})
}

// withBatch runs fn on the batch the path ends in, moves it on, and writes it.
func (s *Server) withBatch(w http.ResponseWriter, p string, fn func(*batch)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.batches[p[strings.LastIndex(p, "/")+1:]]
	if !ok {
		http.Error(w, `{"error":{"message":"no such batch"}}`, 404)
		return
	}
	fn(b)
	s.step(b)
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.object(b))
}

// step moves a batch on at a poll: validating, then in progress, then ended (unless
// held), or cancelling then cancelled once cancelled.
func (s *Server) step(b *batch) {
	if b.ended {
		return
	}
	switch {
	case b.cancelled && (b.state == "cancelling" || b.state == "canceling"):
		s.finish(b, min(s.CancelKeeps, len(b.ids)), "cancelled")
	case b.cancelled:
		b.state = map[bool]string{true: "canceling", false: "cancelling"}[s.Anthropic]
	case b.polls == 0:
	case b.state == "validating":
		b.state = "in_progress"
	case s.Hold:
	case s.Expire > 0:
		s.finish(b, s.Expire, "expired")
	default:
		s.finish(b, len(b.ids), "completed")
	}
}

// finish answers the batch's first n requests and ends it as end says. Its results are
// written when they are read (results), each answer made then: a stub batch of large
// replies holds one at a time, as a provider's file is streamed.
func (s *Server) finish(b *batch, n int, end string) {
	var out, errs counter
	b.ended, b.answered, b.end = true, n, end
	b.counts = s.results(b, &out, &errs)
	if s.Anthropic {
		b.state = "ended"
		return
	}
	b.state = end
	for _, f := range []struct {
		id   *string
		size counter
	}{{&b.out, out}, {&b.errs, errs}} {
		if f.size > 0 {
			s.next++
			*f.id = "file-" + strconv.Itoa(s.next)
		}
	}
}

// counter counts the bytes written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}

// results writes the result lines of an ended batch: OpenAI's output file to out and its
// error file to errs, Anthropic's results JSONL to out; and counts them as the provider's
// request_counts do.
func (s *Server) results(b *batch, out, errs io.Writer) map[string]int {
	counts := map[string]int{}
	for i, id := range b.ids {
		if i >= b.answered {
			if s.Anthropic {
				t := map[string]string{"expired": "expired", "cancelled": "canceled"}[b.end]
				counts[t]++
				fmt.Fprintf(out, `{"custom_id":%q,"result":{"type":%q}}`+"\n", id, t)
			} else if b.end == "expired" {
				counts["failed"]++
				fmt.Fprintf(errs, `{"id":"r%d","custom_id":%q,"response":null,"error":{"code":"batch_expired","message":"This request could not be executed before the completion window expired."}}`+"\n", i, id)
			}
			continue
		}
		status, reply := s.answer(b.bodies[i])
		switch {
		case s.Anthropic && status == 200:
			counts["succeeded"]++
		case s.Anthropic:
			counts["errored"]++
		case status == 200:
			counts["completed"]++
		default:
			counts["failed"]++
		}
		switch {
		case s.Anthropic && status == 200:
			fmt.Fprintf(out, `{"custom_id":%q,"result":{"type":"succeeded","message":`, id)
		case s.Anthropic:
			fmt.Fprintf(out, `{"custom_id":%q,"result":{"type":"errored","error":`, id)
		case status == 200:
			fmt.Fprintf(out, `{"id":"r%d","custom_id":%q,"response":{"status_code":200,"request_id":"q","body":`, i, id)
		default:
			fmt.Fprintf(errs, `{"id":"r%d","custom_id":%q,"response":{"status_code":%d,"request_id":"q","body":`, i, id, status)
		}
		w, tail := out, "}}\n"
		if !s.Anthropic {
			tail = `},"error":null}` + "\n"
			if status != 200 {
				w = errs
			}
		}
		w.Write(reply)
		io.WriteString(w, tail)
	}
	return counts
}

// object is the batch as its API describes it.
func (s *Server) object(b *batch) []byte {
	if s.Anthropic {
		obj := map[string]any{"id": b.id, "type": "message_batch", "processing_status": b.state,
			"request_counts": map[string]int{"processing": len(b.ids), "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}, "results_url": nil}
		if b.ended {
			obj["results_url"] = s.URL + "/v1/messages/batches/" + b.id + "/results"
			obj["request_counts"] = map[string]int{"processing": 0, "succeeded": b.counts["succeeded"], "errored": b.counts["errored"], "canceled": b.counts["canceled"], "expired": b.counts["expired"]}
		}
		data, _ := json.Marshal(obj)
		return data
	}
	obj := map[string]any{"id": b.id, "object": "batch", "endpoint": "/v1/chat/completions", "status": b.state,
		"completion_window": "24h", "request_counts": map[string]int{"total": len(b.ids), "completed": b.counts["completed"], "failed": b.counts["failed"]}}
	if b.out != "" {
		obj["output_file_id"] = b.out
	}
	if b.errs != "" {
		obj["error_file_id"] = b.errs
	}
	data, _ := json.Marshal(obj)
	return data
}
