// Command label-adapter is a fast stand-in classifier for the browser tests of a large run
// and of several AI-systems: it speaks the command adapter protocol (a JSON line {"id",
// "input"} in, {"id", "output"} or {"id", "error"} out), labels a text by its length, and
// fails every 1,000th example. With -wrong-every N it gives the other label to every Nth
// example: a second, worse system from the same program; with -delay D it takes D over
// each example, for a run slow enough to cancel; with -hold FILE it answers nothing while
// FILE exists, so that a test decides when a run may end.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"time"
)

func main() {
	wrongEvery := flag.Int("wrong-every", 0, "give the other label to every Nth example (0: never)")
	delay := flag.Duration("delay", 0, "how long each example takes")
	hold := flag.String("hold", "", "answer nothing while this file exists")
	flag.Parse()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		var req struct {
			ID    int `json:"id"`
			Input struct {
				Text string `json:"text"`
			} `json:"input"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			os.Exit(2)
		}
		time.Sleep(*delay)
		for *hold != "" {
			if _, err := os.Stat(*hold); err != nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		switch {
		case req.ID%1000 == 999:
			enc.Encode(map[string]any{"id": req.ID, "error": "no label for this one"})
		case (len(req.Input.Text)%2 == 0) != (*wrongEvery > 0 && req.ID%*wrongEvery == 0):
			enc.Encode(map[string]any{"id": req.ID, "output": map[string]any{"label": "even"}})
		default:
			enc.Encode(map[string]any{"id": req.ID, "output": map[string]any{"label": "odd"}})
		}
		out.Flush()
	}
}
