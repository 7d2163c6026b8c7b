package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/benchy-eval/benchy/api"
)

// A save names the version of the file it replaces, the etag the server answered when the
// file was opened or last saved: a file changed on disk since (another tab, an editor, git)
// is then not overwritten unseen, and the answer is a *Conflict with the file as it is.

// Conflict is the server's 412 edit_conflict to a save: the file on disk is not the
// version the save named (or a create found a file). YAML and ETag are the file as it is,
// empty when there is none; saving again with that ETag overwrites it.
type Conflict struct {
	Err  *Error
	YAML string
	ETag string
}

func (c *Conflict) Error() string { return c.Err.Error() }
func (c *Conflict) Unwrap() error { return c.Err }

// SaveBenchmark writes yaml to the workspace benchmark at path p over the version etag
// names (If-Match), or only as a new file when etag is "" (If-None-Match: *), and answers
// what it compiles to, with the new version's etag. A save over another version, or a
// create over an existing file, fails with a *Conflict.
func (c *Client) SaveBenchmark(ctx context.Context, p, yaml, etag string) (api.BenchmarkFile, error) {
	var f api.BenchmarkFile
	body, err := json.Marshal(struct {
		YAML string `json:"yaml"`
	}{yaml})
	if err != nil {
		return f, err
	}
	header := map[string]string{"Accept": "application/json", "Content-Type": "application/json"}
	if etag != "" {
		header["If-Match"] = etag
	} else {
		header["If-None-Match"] = "*"
	}
	res, err := fetch(ctx, "PUT", api.BenchmarkPath(p), header, body)
	if err != nil {
		return f, err
	}
	data, err := res.bytes(ctx)
	if err != nil {
		return f, err
	}
	return f, saveAnswer(res.status, data, &f)
}

// saveAnswer decodes the answer of a save into f, or its error: a *Conflict for a 412
// edit_conflict, an *Error for any other refusal.
func saveAnswer(status int, data []byte, f *api.BenchmarkFile) error {
	if status < 300 {
		return json.Unmarshal(data, f)
	}
	e := decodeError(status, data)
	if status == http.StatusPreconditionFailed && e.Code == api.EditConflict {
		var wire api.EditConflictError
		json.Unmarshal(data, &wire)
		return &Conflict{Err: e, YAML: wire.YAML, ETag: wire.ETag}
	}
	return e
}

// AsConflict is err's *Conflict, nil when it is not one.
func AsConflict(err error) *Conflict {
	var c *Conflict
	if errors.As(err, &c) {
		return c
	}
	return nil
}
