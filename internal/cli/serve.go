package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/benchy-eval/benchy/server"
)

func runServe(e *env, args []string) int {
	fs := flags(e, "serve")
	workspace := fs.String("workspace", ".", "the directory of benchmarks to serve")
	addr := fs.String("addr", server.DefaultAddr, "the address to listen on; beyond loopback a token is required")
	token := fs.String("token", os.Getenv("BENCHY_TOKEN"), fmt.Sprintf("require Authorization: Bearer TOKEN on every API call, TOKEN of %d characters or more (default $BENCHY_TOKEN)", server.MinTokenLength))
	maxRuns := fs.Int("max-runs", server.DefaultMaxRuns, fmt.Sprintf("runs executing at once, each of at most %d workers; %d more wait in a queue, and a run beyond them is refused (429, Retry-After)", server.MaxConcurrency, server.MaxQueued))
	maxConns := fs.Int("max-conns", server.DefaultMaxConns, "connections open at once (at most a quarter of the process' file limit; half of them for uploads); more wait until one closes")
	var allowed hostList
	fs.Var(&allowed, "allowed-host", "also answer to `NAME` at any port, or to NAME:PORT at that port only (repeat the flag, or give a\n"+
		"comma-separated list): a reverse proxy's name, whose https:// origin is accepted too. Without it only the\n"+
		"bound address is served (loopback: localhost, 127.0.0.1 and [::1]; 0.0.0.0: the address a client connects\n"+
		"to), at the bound port; any other Host (DNS rebinding) or Origin is refused with 403")
	grace := fs.Duration("grace", 30*time.Second, "on SIGTERM, how long started examples may take to finish before runs are interrupted")
	if _, code, ok := parse(e, fs, args, 0); !ok {
		return code
	}
	s, err := server.New(server.Config{Workspace: *workspace, Addr: *addr, Token: *token, MaxRuns: *maxRuns,
		MaxConns: *maxConns, AllowedHosts: allowed, Log: e.stderr})
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy serve: %v\n", err)
		return ExitFail
	}
	defer s.Close()
	ln, err := s.Listen()
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy serve: %v\n", err)
		return ExitFail
	}
	srv := s.HTTPServer()
	fmt.Fprintf(e.stderr, "benchy: serving %s on http://%s\n", *workspace, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(e.stderr, "benchy serve: %v\n", err)
		return ExitFail
	case <-ctx.Done():
	}
	// Runs first: they stop taking examples, let started ones finish and be stored within
	// the grace period, and what is left is marked interrupted, to be resumed.
	fmt.Fprintln(e.stderr, "benchy: shutting down; unfinished runs will be marked interrupted")
	runsDone, cancelRuns := context.WithTimeout(context.Background(), *grace)
	defer cancelRuns()
	s.Shutdown(runsDone)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "benchy serve: %v\n", err)
		return ExitFail
	}
	return ExitOK
}

// hostList is a flag that may be repeated, each value a comma-separated list.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ",") }

func (h *hostList) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*h = append(*h, name)
		}
	}
	return nil
}
