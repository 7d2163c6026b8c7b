package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	args := os.Args[1:]
	var err error
	switch {
	case len(args) == 3 && args[0] == "gen":
		var n int
		if n, err = strconv.Atoi(args[2]); err == nil {
			err = gen(args[1], n)
		}
	case len(args) == 2 && args[0] == "stub":
		err = stub(args[1])
	case len(args) == 4 && args[0] == "bare":
		var c int
		if c, err = strconv.Atoi(args[3]); err == nil {
			err = bare(args[1], args[2], c)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: throughput gen DIR N | stub ADDR | bare URL DIR CONCURRENCY")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "throughput:", err)
		os.Exit(1)
	}
}
