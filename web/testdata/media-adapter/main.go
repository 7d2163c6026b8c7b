// Command media-adapter is a stand-in AI-system for the results page's browser tests
// (browser_results15_test.go). It speaks the command adapter protocol, one JSON line in
// and one out, and answers what the input's note asks on its first line: "kind=K count=N"
// outputs {kind, count}, "fail: MSG" fails with MSG, "ramble" outputs a field the schema
// does not have. Its answers are known, so the tests can count what the page should show.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID    int            `json:"id"`
			Input map[string]any `json:"input"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "media-adapter: bad request:", err)
			os.Exit(2)
		}
		line, _ := json.Marshal(answer(req.ID, req.Input))
		out.Write(append(line, '\n'))
		out.Flush()
	}
}

func answer(id int, input map[string]any) map[string]any {
	note, _ := input["note"].(string)
	first, _, _ := strings.Cut(note, "\n")
	switch {
	case strings.HasPrefix(first, "fail: "):
		return map[string]any{"id": id, "error": strings.TrimPrefix(first, "fail: ")}
	case first == "ramble":
		return map[string]any{"id": id, "output": map[string]any{"debug": "foo"}}
	}
	var kind string
	var count int
	if _, err := fmt.Sscanf(first, "kind=%s count=%d", &kind, &count); err != nil {
		return map[string]any{"id": id, "error": "cannot read the note: " + err.Error()}
	}
	return map[string]any{"id": id, "output": map[string]any{"kind": kind, "count": count}}
}
