package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// peakRSS is the process's peak resident set size in bytes (VmHWM), 0 where /proc does not
// say; resetPeak starts it again from the current size (Linux's clear_refs 5).
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

func resetPeak() bool { return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil }

// TestBatchBigReplies: a batch of 10 replies of 30 MB each is read and recorded with the
// replies flushed to the store by size, not held by the thousand: the peak resident size
// grows by less than 400 MB (about 250 MB here: one reply's line, its decoded body and the
// GC's headroom; 640 MB when up to 1,000 replies were held before a write). Each reply is
// kept whole.
func TestBatchBigReplies(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 300 MB of replies")
	}
	const n, size = 10, 30 << 20
	r := newBatchRun(t, n, false)
	content, _ := json.Marshal(map[string]string{"name": strings.Repeat("x", size)})
	big, _ := json.Marshal(map[string]any{"object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(content)}}},
		"usage":   map[string]int{"prompt_tokens": 10, "completion_tokens": size / 4}})
	content = nil
	r.srv.Answer = func([]byte) (int, []byte) { return 200, big } // one body, every answer
	p := r.plan(t, fastPolls)
	rec := r.newRun(t, p)
	goruntime.GC()
	debug.FreeOSMemory()
	measured := resetPeak()
	before := peakRSS()
	if _, err := Batch(context.Background(), p, Options{}, rec, Observer{}); err != nil {
		t.Fatal(err)
	}
	rise := peakRSS() - before
	t.Logf("10 replies of 30 MB read: peak RSS rose by %d MB (from %d MB)", rise>>20, before>>20)
	for i := range n {
		reply, msg, ok, err := r.st.BatchReply(rec.ID, i)
		if err != nil || !ok || msg != "" || !bytes.Equal(reply, big) {
			t.Fatalf("reply %d: %d bytes, %q, %v, %v", i, len(reply), msg, ok, err)
		}
	}
	if measured && rise > 400<<20 {
		t.Errorf("peak RSS rose by %d MB reading 10 replies of 30 MB", rise>>20)
	}
}
