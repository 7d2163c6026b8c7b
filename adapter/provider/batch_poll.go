package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// oaBatch is the part of OpenAI's Batch object read here (the OpenAPI spec's Batch:
// status, output_file_id, error_file_id, errors.data[].message, request_counts {total,
// completed, failed}).
type oaBatch struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	OutputFileID string `json:"output_file_id"`
	ErrorFileID  string `json:"error_file_id"`
	Errors       *struct {
		Data []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Line    *int   `json:"line"`
		} `json:"data"`
	} `json:"errors"`
	RequestCounts map[string]int `json:"request_counts"`
}

func (o oaBatch) update(info *BatchInfo) {
	info.State = o.Status
	info.Detail.OutputFileID, info.Detail.ErrorFileID = o.OutputFileID, o.ErrorFileID
	if o.RequestCounts != nil {
		info.Detail.Counts = o.RequestCounts
	}
	if o.Errors != nil && len(o.Errors.Data) > 0 {
		var msgs []string
		for _, e := range o.Errors.Data {
			m := e.Message
			if e.Code != "" {
				m = e.Code + ": " + m
			}
			if e.Line != nil {
				m += " (line " + strconv.Itoa(*e.Line) + ")"
			}
			msgs = append(msgs, m)
		}
		info.Detail.Message = strings.Join(msgs, "; ")
	}
}

// anBatch is the part of Anthropic's Message Batch read here (anthropic-sdk-go's
// MessageBatch: processing_status in_progress, canceling or ended; request_counts
// {processing, succeeded, errored, canceled, expired}; results_url once it ended).
type anBatch struct {
	ID               string         `json:"id"`
	ProcessingStatus string         `json:"processing_status"`
	ResultsURL       string         `json:"results_url"`
	RequestCounts    map[string]int `json:"request_counts"`
}

func (a anBatch) update(info *BatchInfo) {
	info.State = a.ProcessingStatus
	info.Detail.ResultsURL = a.ResultsURL
	if a.RequestCounts != nil {
		info.Detail.Counts = a.RequestCounts
	}
}

// Poll asks the provider how the batch goes (GET /batches/{id}; GET
// /v1/messages/batches/{id}) and updates info.
func (b *Batcher) Poll(ctx context.Context, info *BatchInfo) error {
	if info.Kind == KindAnthropic {
		var batch anBatch
		if err := b.call(ctx, http.MethodGet, b.path("/v1/messages/batches/"+url.PathEscape(info.ID)), nil, &batch); err != nil {
			return fmt.Errorf("polling message batch %s: %w", info.ID, err)
		}
		batch.update(info)
		return b.clean(info)
	}
	var batch oaBatch
	if err := b.call(ctx, http.MethodGet, b.path("/batches/"+url.PathEscape(info.ID)), nil, &batch); err != nil {
		return fmt.Errorf("polling batch %s: %w", info.ID, err)
	}
	batch.update(info)
	return b.clean(info)
}

// Cancel asks the provider to cancel the batch (POST /batches/{id}/cancel; POST
// /v1/messages/batches/{id}/cancel) and updates info with the state it answers
// (cancelling, canceling): the requests it finished still come in its results.
func (b *Batcher) Cancel(ctx context.Context, info *BatchInfo) error {
	if info.Kind == KindAnthropic {
		var batch anBatch
		if err := b.call(ctx, http.MethodPost, b.path("/v1/messages/batches/"+url.PathEscape(info.ID)+"/cancel"), nil, &batch); err != nil {
			return fmt.Errorf("cancelling message batch %s: %w", info.ID, err)
		}
		batch.update(info)
		return b.clean(info)
	}
	var batch oaBatch
	if err := b.call(ctx, http.MethodPost, b.path("/batches/"+url.PathEscape(info.ID)+"/cancel"), nil, &batch); err != nil {
		return fmt.Errorf("cancelling batch %s: %w", info.ID, err)
	}
	batch.update(info)
	return b.clean(info)
}

// Results reads the results of a batch that ended and gives put each example's reply (the
// provider's reply body, secrets masked, as the synchronous path keeps it) or the message
// of its failure; every example of the batch gets one, those the results leave out the
// batch's own end (it expired, was cancelled, failed). A batch the run cancelled because
// its user cancelled it (Detail.CancelledByUs) gives only what the provider answered: the
// requests it did not process get nothing, for the resume to send them again. A
// custom_id the batch did not ask is ignored.
func (b *Batcher) Results(ctx context.Context, info BatchInfo, put func(index int, reply []byte, message string) error) error {
	seen := map[int]bool{}
	resend := info.Detail.CancelledByUs && !info.Detail.Overdue
	// left says the provider did not process the request (it was cancelled or expired).
	give := func(id string, reply []byte, msg string, left bool) error {
		i, err := strconv.Atoi(id)
		if err != nil || !info.Detail.Has(i) || seen[i] || left && resend {
			return nil
		}
		if left && info.Detail.Overdue {
			msg = unanswered(info) // the provider's "expired" or "cancelled" is benchy's doing
		}
		seen[i] = true
		if reply != nil {
			reply = b.a.c.secrets.Deep(reply)
		}
		return put(i, reply, b.cleanText(msg))
	}
	var err error
	if info.Kind == KindAnthropic {
		err = b.messageResults(ctx, info, give)
	} else {
		err = b.fileResults(ctx, info, give)
	}
	if err != nil {
		return err
	}
	if resend {
		return nil
	}
	var rest error
	info.Detail.Each(func(i int) {
		if rest == nil && !seen[i] {
			rest = put(i, nil, b.cleanText(unanswered(info)))
		}
	})
	return rest
}

// Abandon gives put the failure of every example of a batch the run stops waiting for
// before it ended (Detail.Overdue): its results cannot be read.
func (b *Batcher) Abandon(info BatchInfo, put func(index int, reply []byte, message string) error) error {
	msg := b.cleanText(unanswered(info))
	var err error
	info.Detail.Each(func(i int) {
		if err == nil {
			err = put(i, nil, msg)
		}
	})
	return err
}

// unanswered is the message of a request the results of an ended batch leave out.
func unanswered(info BatchInfo) string {
	switch {
	case info.Detail.Overdue:
		return "the batch " + info.ID + " had not ended a day after it was submitted (its 24-hour window was over): it was cancelled, and this request expired unprocessed"
	case info.State == "expired":
		return "the batch " + info.ID + " expired (its 24-hour window ended) before this request was processed"
	case info.State == "cancelled" || info.Detail.Counts["canceled"] > 0:
		return "the batch " + info.ID + " was cancelled before this request was processed"
	case info.State == "failed" && info.Detail.Message != "":
		return "the batch " + info.ID + " failed: " + info.Detail.Message
	case info.State == "failed":
		return "the batch " + info.ID + " failed"
	}
	return "the batch " + info.ID + " ended without a result for this request"
}

// unprocessed are the error codes of an OpenAI batch's error file that say a request was
// not processed, the batch having ended first (batch_expired, as the Batch guide shows
// it; batch_cancelled, its counterpart).
var unprocessed = map[string]bool{"batch_expired": true, "batch_cancelled": true}

// oaLine is one line of an OpenAI batch's output or error file (the spec's
// BatchRequestOutput: custom_id, response {status_code, request_id, body}, error {code,
// message}).
type oaLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// fileResults reads the output file, then the error file (GET /files/{id}/content).
func (b *Batcher) fileResults(ctx context.Context, info BatchInfo, give func(string, []byte, string, bool) error) error {
	for _, id := range []string{info.Detail.OutputFileID, info.Detail.ErrorFileID} {
		if id == "" {
			continue
		}
		err := b.stream(ctx, http.MethodGet, b.path("/files/"+url.PathEscape(id)+"/content"), nil, func(r io.Reader) error {
			return eachLine(r, func(line []byte) error {
				var l oaLine
				if err := json.Unmarshal(line, &l); err != nil {
					return fmt.Errorf("a line of file %s is not a batch result: %s", id, snippet(b.a.c.secrets, line))
				}
				switch {
				case l.Error != nil:
					msg := l.Error.Message
					if l.Error.Code != "" {
						msg = l.Error.Code + ": " + msg
					}
					return give(l.CustomID, nil, msg, unprocessed[l.Error.Code])
				case l.Response == nil:
					return give(l.CustomID, nil, "the batch's result for this request has neither a response nor an error", false)
				case l.Response.StatusCode < 200 || l.Response.StatusCode > 299:
					// As the synchronous path words a provider's refusal.
					return give(l.CustomID, nil, fmt.Sprintf("HTTP %d: %s", l.Response.StatusCode, snippet(b.a.c.secrets, l.Response.Body)), false)
				}
				return give(l.CustomID, []byte(l.Response.Body), "", false)
			})
		})
		if err != nil {
			return fmt.Errorf("reading the results of batch %s: %w", info.ID, err)
		}
	}
	return nil
}

// anLine is one line of a Message Batch's results (anthropic-sdk-go's
// MessageBatchIndividualResponse: custom_id, result {type succeeded with message, errored
// with error {type: "error", error {type, message}}, canceled, expired}).
type anLine struct {
	CustomID string `json:"custom_id"`
	Result   struct {
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
		Error   json.RawMessage `json:"error"`
	} `json:"result"`
}

// anErrorStatus is the HTTP status of each error type of the Messages API (Anthropic's
// "Errors" page): an errored request of a batch is worded as the synchronous path words
// the same error answered with its status ("HTTP 400: {...}"), so that both modes give one
// message.
var anErrorStatus = map[string]int{
	"invalid_request_error": 400, "authentication_error": 401, "billing_error": 402, "permission_error": 403,
	"not_found_error": 404, "request_too_large": 413, "rate_limit_error": 429, "api_error": 500,
	"timeout_error": 504, "overloaded_error": 529,
}

// anErrorMessage is the message of an errored request: its error response (type "error",
// error {type, message}) as the synchronous path quotes it.
func (b *Batcher) anErrorMessage(raw json.RawMessage) string {
	var e struct {
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Error == nil {
		return "the request failed in the batch: " + snippet(b.a.c.secrets, raw)
	}
	if status, ok := anErrorStatus[e.Error.Type]; ok {
		return fmt.Sprintf("HTTP %d: %s", status, snippet(b.a.c.secrets, raw))
	}
	return e.Error.Type + ": " + e.Error.Message
}

// messageResults reads the results_url's JSONL (GET /v1/messages/batches/{id}/results).
// The key goes only to the provider's own origin: a results_url elsewhere is not followed,
// the documented path under the base URL is asked instead.
func (b *Batcher) messageResults(ctx context.Context, info BatchInfo, give func(string, []byte, string, bool) error) error {
	u := info.Detail.ResultsURL
	if u == "" || !b.sameOrigin(u) {
		u = b.path("/v1/messages/batches/" + url.PathEscape(info.ID) + "/results")
	}
	err := b.stream(ctx, http.MethodGet, u, nil, func(r io.Reader) error {
		return eachLine(r, func(line []byte) error {
			var l anLine
			if err := json.Unmarshal(line, &l); err != nil {
				return fmt.Errorf("a line of the results is not a batch result: %s", snippet(b.a.c.secrets, line))
			}
			switch l.Result.Type {
			case "succeeded":
				return give(l.CustomID, []byte(l.Result.Message), "", false)
			case "errored":
				return give(l.CustomID, nil, b.anErrorMessage(l.Result.Error), false)
			case "canceled":
				return give(l.CustomID, nil, "the batch "+info.ID+" was cancelled before this request was processed", true)
			case "expired":
				return give(l.CustomID, nil, "the batch "+info.ID+" expired (its 24-hour window ended) before this request was processed", true)
			}
			return give(l.CustomID, nil, fmt.Sprintf("the batch's result for this request is of an unknown type %q", l.Result.Type), false)
		})
	})
	if err != nil {
		return fmt.Errorf("reading the results of message batch %s: %w", info.ID, err)
	}
	return nil
}

// eachLine calls fn with each non-blank line of r, up to maxBody bytes a line (a reply's
// bound on the synchronous path too): a longer one is an error, not a line held whole. The
// line's bytes are reused for the next one: fn keeps a copy of what it keeps (the JSON
// decoding of a result copies its body).
func eachLine(r io.Reader, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		line, err := readLine(br, buf[:0])
		if errors.Is(err, errLongLine) {
			return fmt.Errorf("line %d of the results is larger than %d MiB, the most a reply may be", n, maxBody>>20)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		buf = line
	}
}

// errLongLine is readLine's error for a line past maxBody.
var errLongLine = errors.New("line too long")

// readLine reads one line into line, without its newline.
func readLine(br *bufio.Reader, line []byte) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		if n := len(line) + len(bytes.TrimSuffix(part, []byte("\n"))); n > maxBody {
			return nil, errLongLine
		}
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSuffix(line, []byte("\n")), err
		}
	}
}
