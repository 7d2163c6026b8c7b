package provider

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a batch provider says is kept in the store, printed on the progress line and served
// by the API: its ids, states, counts and messages are read as a hostile party could write
// them. An id is used again in URLs and shown as it is, so it must be plain (no secret, no
// path or control character) or the batch is refused; a message is masked and cleaned.

// maxProviderID bounds a batch or file id: the providers' are a few dozen characters.
const maxProviderID = 200

// plainID says why id cannot be kept and used again, or "".
func (b *Batcher) plainID(id string) string {
	switch {
	case id == "":
		return "is empty"
	case len(id) > maxProviderID:
		return fmt.Sprintf("is longer than %d characters", maxProviderID)
	case b.a.c.secrets.String(id) != id:
		return "holds the API key"
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.:", r)) {
			return fmt.Sprintf("holds %q, which no provider id has", r)
		}
	}
	return ""
}

// knownStates are the states the two APIs document (batchInfo.State): any other is kept
// as "unknown", never as the provider wrote it.
var knownStates = map[string]bool{"validating": true, "in_progress": true, "finalizing": true, "completed": true, "failed": true,
	"expired": true, "cancelling": true, "cancelled": true, "canceling": true, "ended": true}

// maxProviderMessage bounds a message kept from a batch provider.
const maxProviderMessage = 500

// clean checks and cleans what the provider said of a batch before it is kept: its ids
// plain (an error otherwise, which names no id), its state one the APIs document, its
// message masked, without control characters and cut, its counts non-negative.
func (b *Batcher) clean(info *BatchInfo) error {
	for _, id := range []struct{ what, id string }{{"batch id", info.ID}, {"output file id", info.Detail.OutputFileID},
		{"error file id", info.Detail.ErrorFileID}, {"input file id", info.Detail.InputFileID}} {
		if id.id == "" && id.what != "batch id" {
			continue
		}
		if why := b.plainID(id.id); why != "" {
			return fmt.Errorf("the provider's %s %s: refused", id.what, why)
		}
	}
	if info.Detail.ResultsURL != "" && b.a.c.secrets.String(info.Detail.ResultsURL) != info.Detail.ResultsURL {
		return fmt.Errorf("the provider's results_url holds the API key: refused")
	}
	if !knownStates[info.State] {
		info.State = "unknown"
	}
	for k, n := range info.Detail.Counts {
		// A count is of the batch's requests: more than it holds is no count.
		if n < 0 || !knownCount(k) || (info.Requests > 0 && n > info.Requests) {
			delete(info.Detail.Counts, k)
		}
	}
	info.Detail.Message = b.cleanText(info.Detail.Message)
	return nil
}

// knownCount says k is a request_counts member the APIs document.
func knownCount(k string) bool {
	switch k {
	case "total", "completed", "failed", "processing", "succeeded", "errored", "canceled", "expired":
		return true
	}
	return false
}

// cleanText is a provider's text as it may be kept and shown: secrets masked (in the
// text and in any JSON escape of it), control characters and invalid UTF-8 replaced,
// at most maxProviderMessage bytes.
func (b *Batcher) cleanText(s string) string {
	s = strings.ToValidUTF8(string(b.a.c.secrets.Deep([]byte(s))), "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) > maxProviderMessage {
		cut := maxProviderMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
