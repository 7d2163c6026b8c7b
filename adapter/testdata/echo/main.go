// Command echo is the command adapter's test partner: it answers each request line with its
// input as the output, unless the input's "action" asks for a misbehaviour.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return // stdin closed: the adapter's cue to exit
		}
		var req struct {
			ID    json.RawMessage `json:"id"`
			Input json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintf(os.Stderr, "bad request: %v\n", err)
			os.Exit(2)
		}
		var in struct {
			Action string `json:"action"`
			MS     int    `json:"ms"`
			N      int    `json:"n"`
			Name   string `json:"name"`
		}
		json.Unmarshal(req.Input, &in)
		if in.Name != "" {
			secret = os.Getenv(in.Name)
		}
		answer(out, string(req.ID), req.Input, in.Action, in.MS, in.N)
		out.Flush()
	}
}

// secret is the value of the variable the input's "name" names, for the leak actions.
var secret string

func answer(out *bufio.Writer, id string, input json.RawMessage, action string, ms, n int) {
	reply := func(key string, value any) {
		b, _ := json.Marshal(value)
		fmt.Fprintf(out, "{\"id\":%s,%q:%s}\n", id, key, b)
	}
	switch action {
	case "crash":
		fmt.Fprintln(os.Stderr, "crashing on purpose")
		os.Exit(3)
	case "exit0":
		os.Exit(0)
	case "sigterm": // stopped by SIGTERM, as a job's supervisor stops every process of it
		p, _ := os.FindProcess(os.Getpid())
		p.Signal(syscall.SIGTERM)
		time.Sleep(10 * time.Second)
	case "once": // answers, then exits cleanly, as one-shot commands do
		reply("output", input)
		out.Flush()
		os.Exit(0)
	case "exitafter":
		reply("output", input)
		out.Flush()
		os.Exit(1)
	case "closeout":
		os.Stdout.Close()
		time.Sleep(time.Minute)
	case "sleep":
		time.Sleep(time.Duration(ms) * time.Millisecond)
		reply("output", input)
	case "garbage":
		fmt.Fprintln(out, "this is not JSON")
	case "wrongid":
		i, _ := strconv.Atoi(id)
		fmt.Fprintf(out, "{\"id\":%d,\"output\":%s}\n", i+1, input)
	case "error":
		reply("error", "boom")
	case "nooutput":
		fmt.Fprintf(out, "{\"id\":%s}\n", id)
	case "extra":
		fmt.Fprintf(out, "{\"id\":%s,\"output\":1,\"usage\":2}\n", id)
	case "stderr":
		fmt.Fprintln(os.Stderr, "a note on stderr")
		reply("output", input)
	case "cwd":
		wd, _ := os.Getwd()
		reply("output", map[string]string{"cwd": wd})
	case "pid":
		reply("output", map[string]int{"pid": os.Getpid()})
	case "env": // the environment it was given
		reply("output", map[string]any{"env": os.Environ()})
	case "fork": // leaves a sleep 1000 behind, in its process group
		child := exec.Command("sleep", "1000")
		if err := child.Start(); err != nil {
			reply("error", err.Error())
			return
		}
		reply("output", map[string]int{"pid": os.Getpid(), "child": child.Process.Pid})
		if ms > 0 { // then hangs
			out.Flush()
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
	case "leak": // the secret on stderr (once across the 64 KB read buffer) and in the output
		fmt.Fprintf(os.Stderr, "%s%s tail\n", strings.Repeat("s", 64<<10-len(secret)/2), secret)
		fmt.Fprintf(os.Stderr, "using key %s\n", secret)
		reply("output", map[string]any{"text": "the key is " + secret, secret: "a name"})
	case "leakerror":
		reply("error", strings.Repeat("e", 190)+secret+strings.Repeat("e", 800))
	case "leakgarbage": // not JSON, the secret across the 200-byte cut
		fmt.Fprintf(out, "%s%s%s\n", strings.Repeat("g", 190), secret, strings.Repeat("g", 800))
	case "leakescaped": // not JSON, and on stderr, the secret spelt with \u escapes (n 2: escaped twice, as in a JSON text inside a JSON string)
		var esc strings.Builder
		for _, c := range secret {
			fmt.Fprintf(&esc, `%s%04x`, strings.Repeat(`\`, max(n, 1))+"u", c)
		}
		fmt.Fprintf(os.Stderr, "warning: key %s\n", esc.String())
		fmt.Fprintf(out, "oops: \"%s\"\n", esc.String())
	case "big":
		reply("output", map[string]string{"text": strings.Repeat("x", n)})
	default:
		fmt.Fprintf(out, "{\"id\":%s,\"output\":%s}\n", id, input)
	}
}
