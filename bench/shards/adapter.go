//go:build ignore

// Command adapter is a CPU-bound stand-in AI-system for bench/shards/run.sh: for each
// request (the command adapter protocol: one JSON line in, one out) it hashes its text
// for a fixed amount of work, then answers the text's length, so a run's cost is CPU alone.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"os"
	"strconv"
)

func main() {
	work, _ := strconv.Atoi(os.Getenv("WORK"))
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID    int `json:"id"`
			Input struct {
				Text string `json:"text"`
			} `json:"input"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil {
			os.Exit(2)
		}
		sum := sha256.Sum256([]byte(req.Input.Text))
		for range work {
			sum = sha256.Sum256(sum[:])
		}
		line, _ := json.Marshal(map[string]any{"id": req.ID, "output": map[string]any{"length": len(req.Input.Text), "first": sum[0] % 1}})
		out.Write(append(line, '\n'))
		out.Flush()
	}
}
