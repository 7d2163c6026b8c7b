package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strconv"

	"github.com/benchy-eval/benchy/engine"
)

// Batcher sends one run's requests through its provider's batch API: Add renders each
// example's request as the synchronous adapter would and gathers them into batches within
// the documented limits, each submitted when full (Flush submits the last); Poll, Results
// and Cancel follow a batch submitted; Factory makes the adapters that answer each example
// from the replies kept. It is made from an adapter of the run's factory (Batching), so
// that it has the very client, key, template and protocol the run's adapters have.
type Batcher struct {
	a    *modelAdapter
	cfg  BatchConfig
	base *url.URL
	cur  *chunk
	// Submitted is told of each batch the provider accepted, before the next is built: the
	// run service keeps it in the store, so that a restarted run polls it rather than
	// sending its requests again.
	Submitted func(BatchInfo) error
}

// Batching is the Batcher of a, an adapter of a model AI-system's factory whose provider
// has batch: true; false for any other.
func Batching(a engine.Adapter) (*Batcher, bool) {
	m, ok := a.(*modelAdapter)
	if !ok || !m.c.cfg.Batch.On {
		return nil, false
	}
	return &Batcher{a: m, cfg: m.c.cfg.Batch, base: m.base}, true
}

// Provider is the provider's name in the runtime file; Kind its protocol.
func (b *Batcher) Provider() string { return b.a.c.cfg.Name }
func (b *Batcher) Kind() Kind       { return b.a.c.cfg.Kind }

// Config is the provider's batch settings.
func (b *Batcher) Config() BatchConfig { return b.cfg }

// Factory makes adapters that answer each example from replies instead of the network:
// the same render, the same reply parsing (modelAdapter.answer), so the same results.
func (b *Batcher) Factory(replies BatchReplies) engine.Factory {
	m := *b.a
	m.replies = replies
	return func() (engine.Adapter, error) {
		a := m
		return &a, nil
	}
}

// openAIBatchEndpoint is the url of every line of an OpenAI batch and the endpoint of the
// batch: the Batch API's path of Chat Completions, whatever the base URL's path.
const openAIBatchEndpoint = "/v1/chat/completions"

// chunk is the batch being built, in a temporary file: for OpenAI the input file's JSONL
// (one {custom_id, method, url, body} per line, the Batch API's request input object),
// for Anthropic the create request's body ({"requests": [{custom_id, params}, ...]}).
type chunk struct {
	f      *os.File
	n      int
	size   int64
	detail BatchDetail
}

// Add renders example index's request and adds it to the batch being built, submitting
// that batch first when the request would take it past a limit. A request that cannot be
// rendered (a missing artifact, a type the protocol cannot carry) is left out: its
// adapter fails it, as the synchronous run does, when the engine asks for it.
func (b *Batcher) Add(ctx context.Context, index int, input map[string]any) error {
	a := b.a
	task, parts, err := a.render(input)
	if err != nil {
		return nil
	}
	body, err := a.w.body(task, a.c.cfg.StructuredOutput, parts)
	if err != nil {
		return nil
	}
	id := strconv.Itoa(index)
	var head, tail string
	if a.c.cfg.Kind == KindAnthropic {
		head, tail = `{"custom_id":"`+id+`","params":`, `}`
	} else {
		head, tail = `{"custom_id":"`+id+`","method":"POST","url":"`+openAIBatchEndpoint+`","body":`, "}\n"
	}
	size := int64(len(head)+len(tail)+1) + body.size // 1: Anthropic's comma
	maxN, maxSize := b.cfg.limits(a.c.cfg.Kind)
	if b.cur != nil && (b.cur.n+1 > maxN || b.cur.size+size > maxSize) {
		if err := b.submit(ctx); err != nil {
			return err
		}
	}
	if b.cur == nil {
		if err := b.start(); err != nil {
			return err
		}
	}
	c := b.cur
	at := c.size
	if c.n > 0 && a.c.cfg.Kind == KindAnthropic {
		head = "," + head
	}
	s := &sending{b: body}
	rd, err := s.reader()
	var f *engine.Failure
	if errors.As(err, &f) {
		return nil // a file gone since it was rendered: its adapter says so
	}
	if err != nil {
		return err
	}
	n, err := writeLine(c.f, head, rd, tail)
	rd.Close()
	if s.failure() != nil || err == nil && n != int64(len(head)+len(tail))+body.size {
		// A file changed while it was read: the line is taken back, and the adapter fails
		// the example as a send would.
		if err := c.f.Truncate(at); err != nil {
			return err
		}
		_, err := c.f.Seek(at, io.SeekStart)
		return err
	}
	if err != nil {
		return fmt.Errorf("writing the batch's requests: %w", err)
	}
	c.n++
	c.size += n
	c.detail.add(index)
	return nil
}

// writeLine writes head, the body read from rd, and tail to w.
func writeLine(w io.Writer, head string, rd io.Reader, tail string) (int64, error) {
	n1, err := io.WriteString(w, head)
	if err != nil {
		return int64(n1), err
	}
	n2, err := io.Copy(w, rd)
	if err != nil {
		return int64(n1) + n2, err
	}
	n3, err := io.WriteString(w, tail)
	return int64(n1+n3) + n2, err
}

func (b *Batcher) start() error {
	f, err := os.CreateTemp("", "benchy-batch-*.jsonl")
	if err != nil {
		return fmt.Errorf("a file for the batch's requests: %w", err)
	}
	b.cur = &chunk{f: f}
	if b.a.c.cfg.Kind == KindAnthropic {
		n, err := io.WriteString(f, `{"requests":[`)
		b.cur.size = int64(n)
		return err
	}
	return nil
}

// Flush submits the batch being built, if it holds any request.
func (b *Batcher) Flush(ctx context.Context) error {
	if b.cur == nil {
		return nil
	}
	return b.submit(ctx)
}

// Close drops the batch being built, if any, unsent.
func (b *Batcher) Close() error {
	if b.cur == nil {
		return nil
	}
	c := b.cur
	b.cur = nil
	c.f.Close()
	return os.Remove(c.f.Name())
}

// submit sends the batch being built and tells Submitted of it.
func (b *Batcher) submit(ctx context.Context) error {
	c := b.cur
	defer b.Close()
	if c.n == 0 {
		return nil
	}
	if b.a.c.cfg.Kind == KindAnthropic {
		if _, err := io.WriteString(c.f, `]}`); err != nil {
			return err
		}
	}
	var info BatchInfo
	var err error
	if b.a.c.cfg.Kind == KindAnthropic {
		info, err = b.createMessageBatch(ctx, c.f.Name())
	} else {
		info, err = b.createBatch(ctx, c.f.Name())
	}
	if err != nil {
		return err
	}
	info.Provider, info.Kind, info.Requests = b.a.c.cfg.Name, b.a.c.cfg.Kind, c.n
	info.Detail.Indices = c.detail.Indices
	if b.Submitted != nil {
		return b.Submitted(info)
	}
	return nil
}

// createBatch uploads the input file (POST /files, multipart, purpose "batch": the Files
// API's "Upload file") and creates the batch over it (POST /batches with input_file_id,
// endpoint and completion_window "24h", the only window the Batch API offers).
func (b *Batcher) createBatch(ctx context.Context, path string) (BatchInfo, error) {
	upload := func() (io.ReadCloser, string, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", err
		}
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			defer f.Close()
			err := mw.WriteField("purpose", "batch")
			if err == nil {
				var part io.Writer
				if part, err = mw.CreateFormFile("file", "benchy-batch.jsonl"); err == nil {
					if _, err = io.Copy(part, f); err == nil {
						err = mw.Close()
					}
				}
			}
			pw.CloseWithError(err)
		}()
		return pr, mw.FormDataContentType(), nil
	}
	var file struct {
		ID string `json:"id"`
	}
	if err := b.call(ctx, http.MethodPost, b.path("/files"), upload, &file); err != nil {
		return BatchInfo{}, fmt.Errorf("uploading the batch's requests: %w", err)
	}
	if file.ID == "" {
		return BatchInfo{}, fmt.Errorf("uploading the batch's requests: the provider's reply has no file id")
	}
	req, _ := json.Marshal(map[string]string{"input_file_id": file.ID, "endpoint": openAIBatchEndpoint, "completion_window": "24h"})
	var batch oaBatch
	if err := b.call(ctx, http.MethodPost, b.path("/batches"), jsonBody(req), &batch); err != nil {
		return BatchInfo{}, fmt.Errorf("creating the batch: %w", err)
	}
	if batch.ID == "" {
		return BatchInfo{}, fmt.Errorf("creating the batch: the provider's reply has no batch id")
	}
	info := BatchInfo{ID: batch.ID}
	batch.update(&info)
	info.Detail.InputFileID = file.ID
	if err := b.clean(&info); err != nil {
		return BatchInfo{}, fmt.Errorf("creating the batch: %w", err)
	}
	return info, nil
}

// createMessageBatch creates a Message Batch (POST /v1/messages/batches with
// {requests: [{custom_id, params}]}, params a Messages request's body).
func (b *Batcher) createMessageBatch(ctx context.Context, path string) (BatchInfo, error) {
	body := func() (io.ReadCloser, string, error) {
		f, err := os.Open(path)
		return f, "application/json", err
	}
	var batch anBatch
	if err := b.call(ctx, http.MethodPost, b.path("/v1/messages/batches"), body, &batch); err != nil {
		return BatchInfo{}, fmt.Errorf("creating the message batch: %w", err)
	}
	if batch.ID == "" {
		return BatchInfo{}, fmt.Errorf("creating the message batch: the provider's reply has no batch id")
	}
	info := BatchInfo{ID: batch.ID}
	batch.update(&info)
	if err := b.clean(&info); err != nil {
		return BatchInfo{}, fmt.Errorf("creating the message batch: %w", err)
	}
	return info, nil
}
