// Command invoice-adapter is a stand-in AI-system for the paper's invoice benchmark, for the
// end-to-end tests of `benchy run`. It speaks the command adapter protocol: one JSON line in
// ({"id", "input"}), one JSON line out ({"id", "output"} or {"id", "error"}). Its "images"
// are small text files holding the fields it reads off them, so its answers are known; a
// file may ask it to fail in one of the ways real systems do.
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
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID    int            `json:"id"`
			Input map[string]any `json:"input"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "invoice-adapter: bad request:", err)
			os.Exit(2)
		}
		reply := answer(req.ID, req.Input)
		line, _ := json.Marshal(reply)
		out.Write(append(line, '\n'))
		out.Flush()
	}
}

func answer(id int, input map[string]any) map[string]any {
	path, _ := input["image"].(string)
	data, err := os.ReadFile(path)
	if err != nil {
		return map[string]any{"id": id, "error": err.Error()}
	}
	text := strings.TrimSpace(string(data))
	switch text {
	case "crash":
		os.Exit(3)
	case "refuse":
		return map[string]any{"id": id, "error": "the scan is unreadable"}
	case "ramble":
		return map[string]any{"id": id, "output": map[string]any{"debug": "foo"}}
	}
	var fields map[string]any
	if err := json.Unmarshal([]byte(text), &fields); err != nil {
		return map[string]any{"id": id, "error": "not an invoice: " + err.Error()}
	}
	return map[string]any{"id": id, "output": fields}
}
