package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/benchy-eval/benchy/api"
)

// RunEvent is one event of a run's stream, decoded: exactly one field is set.
type RunEvent struct {
	Progress *api.Progress
	Example  *api.Example
	Skipped  *api.Skipped
	Done     *api.Done // the last event of a stream
}

// decodeRunEvent decodes a Server-Sent Event of a run's stream; ok is false for an event
// of another name or with data that does not decode, which a reader skips.
func decodeRunEvent(ev sse) (RunEvent, bool) {
	var re RunEvent
	var into any
	switch ev.name {
	case "progress":
		re.Progress = new(api.Progress)
		into = re.Progress
	case "example":
		re.Example = new(api.Example)
		into = re.Example
	case "skipped":
		re.Skipped = new(api.Skipped)
		into = re.Skipped
	case "done":
		re.Done = new(api.Done)
		into = re.Done
	default:
		return re, false
	}
	return re, json.Unmarshal(ev.data, into) == nil
}

// Events reads run id's event stream, calling fn for each event, until the stream ends,
// ctx is done, or fn returns false. It reads through fetch (not EventSource) so that the
// token goes in a header, never in a URL.
func (c *Client) Events(ctx context.Context, id string, fn func(RunEvent) bool) error {
	res, err := fetch(ctx, "GET", api.EventsPath(id), map[string]string{"Accept": "text/event-stream"}, nil)
	if err != nil {
		return err
	}
	if res.status >= 300 {
		_, err := res.body(ctx)
		return err
	}
	body := res.stream(ctx)
	defer body.Close()
	return readEvents(body, func(ev sse) bool {
		re, ok := decodeRunEvent(ev)
		return !ok || fn(re)
	})
}

// sse is one Server-Sent Event.
type sse struct {
	name string
	data []byte
}

// readEvents parses a text/event-stream.
func readEvents(r io.Reader, fn func(sse) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var ev sse
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 || ev.name != "" {
				ev.data = bytes.TrimSuffix(data.Bytes(), []byte("\n"))
				if ev.name == "" {
					ev.name = "message"
				}
				if !fn(ev) {
					return nil
				}
			}
			ev, data = sse{}, bytes.Buffer{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			ev.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			data.WriteByte('\n')
		}
	}
	return sc.Err()
}
