package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
)

// stub serves a Chat Completions endpoint that answers each request with the sentiment its
// text names, and usage counted from its length.
func stub(addr string) error {
	var requests, bytesIn atomic.Int64
	var first atomic.Pointer[[]byte] // the first request since the last reset
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if requests.Add(1) == 1 {
			first.Store(&body)
		}
		bytesIn.Add(int64(len(body)))
		label := "neutral"
		for _, s := range sentiments {
			if bytes.Contains(body, []byte("["+s+"]")) {
				label = s
				break
			}
		}
		in := len(body) / 4
		reply := `{"id":"chatcmpl-stub","object":"chat.completion","created":0,"model":"stub-model","choices":[{"index":0,"message":{"role":"assistant","content":"{\"sentiment\": \"` +
			label + `\"}","refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":` +
			strconv.Itoa(in) + `,"completion_tokens":7,"total_tokens":` + strconv.Itoa(in+7) + `}}`
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(reply)))
		io.WriteString(w, reply)
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		n, b := requests.Load(), bytesIn.Load()
		avg := int64(0)
		if n > 0 {
			avg = b / n
		}
		fmt.Fprintf(w, "%d requests, %d bytes each on average\n", n, avg)
	})
	mux.HandleFunc("GET /first", func(w http.ResponseWriter, r *http.Request) {
		if b := first.Load(); b != nil {
			w.Write(*b)
		}
	})
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, r *http.Request) {
		requests.Store(0)
		bytesIn.Store(0)
		first.Store(nil)
	})
	return http.ListenAndServe(addr, mux)
}
