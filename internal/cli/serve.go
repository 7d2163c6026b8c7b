package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/benchy-eval/benchy/server"
)

func runServe(e *env, args []string) int {
	fs := flags(e, "serve")
	workspace := fs.String("workspace", ".", "the directory of benchmarks to serve")
	addr := fs.String("addr", server.DefaultAddr, "the address to listen on; beyond loopback a token is required")
	token := fs.String("token", os.Getenv("BENCHY_TOKEN"), "require Authorization: Bearer TOKEN on every API call (default $BENCHY_TOKEN)")
	maxRuns := fs.Int("max-runs", server.DefaultMaxRuns, "runs executing at once; the rest wait in a queue")
	grace := fs.Duration("grace", 30*time.Second, "on SIGTERM, how long started examples may take to finish before runs are interrupted")
	if _, code, ok := parse(e, fs, args, 0); !ok {
		return code
	}
	s, err := server.New(server.Config{Workspace: *workspace, Addr: *addr, Token: *token, MaxRuns: *maxRuns, Log: e.stderr})
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy serve: %v\n", err)
		return ExitFail
	}
	defer s.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy serve: %v\n", err)
		return ExitFail
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
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
