// Command slow-adapter is a stand-in AI-system for the server's tests of cancel, resume,
// queueing and shutdown: an AI-system that takes its time, and whose every call is counted.
//
// It speaks the command adapter protocol (one JSON line in, one out). For an input
// {"text": T} it answers {"number": T, "total": len(T)}, or an error when T starts with
// "fail". Flags:
//
//	-log FILE    append each request's id to FILE, one a line, as the request arrives
//	-delay MS    take MS milliseconds over each answer
//	-gate FILE   hold the answers to ids of -from and above until FILE exists
//	-from N      see -gate (default 0)
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	logPath := flag.String("log", "", "append each request's id to this file")
	delay := flag.Int("delay", 0, "milliseconds per answer")
	gate := flag.String("gate", "", "hold answers until this file exists")
	from := flag.Int("from", 0, "the first id the gate holds")
	flag.Parse()
	var log *os.File
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "slow-adapter:", err)
			os.Exit(2)
		}
		log = f
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req struct {
			ID    int `json:"id"`
			Input struct {
				Text string `json:"text"`
			} `json:"input"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "slow-adapter: bad request:", err)
			os.Exit(2)
		}
		if log != nil {
			fmt.Fprintf(log, "%d\n", req.ID)
		}
		if *gate != "" && req.ID >= *from {
			for {
				if _, err := os.Stat(*gate); err == nil {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
		time.Sleep(time.Duration(*delay) * time.Millisecond)
		reply := map[string]any{"id": req.ID}
		if strings.HasPrefix(req.Input.Text, "fail") {
			reply["error"] = "cannot read " + req.Input.Text
		} else {
			reply["output"] = map[string]any{"number": req.Input.Text, "total": len(req.Input.Text)}
		}
		line, _ := json.Marshal(reply)
		out.Write(append(line, '\n'))
		out.Flush()
	}
}
