package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"
)

// raiseFileLimit lifts the process' soft limit of open files to its hard limit, and skips
// the test when even that cannot hold need files.
func raiseFileLimit(t *testing.T, need uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip("no file limit to read:", err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if lim.Cur < need {
		t.Skipf("the process may open %d files, the test needs %d", lim.Cur, need)
	}
}

// TestHardeningSlowClients: 1,000 slow connections on loopback (half send a header that
// never ends, half a body a byte at a time) do not keep a normal request from being answered
// within 1 s, and the server closes every one of them by its read timeouts (shortened here
// to 2 s for the header and 3 s for the request), by itself.
func TestHardeningSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("holds 1,000 connections for a few seconds")
	}
	const slow = 1000
	// Both ends of each connection are in this process, and the server takes connections up
	// to a quarter of the limit (maxConns): 1,000 slow ones and the normal requests need 4,256.
	raiseFileLimit(t, 4*(slow+64))
	rs := serveReal(t, Config{}, func(hs *http.Server) {
		hs.ReadHeaderTimeout, hs.ReadTimeout = 2*time.Second, 3*time.Second
	})
	addr := "127.0.0.1:" + rs.port
	conns := make([]net.Conn, 0, slow)
	start := time.Now()
	for i := range slow {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		if i%2 == 0 {
			fmt.Fprintf(c, "GET /api/ontology HTTP/1.1\r\nHost: %s\r\nX-Slow: ", addr) // a header that never ends
		} else {
			fmt.Fprintf(c, "POST /api/compile HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
		}
		conns = append(conns, c)
	}
	t.Logf("%d slow connections open in %v", slow, time.Since(start).Round(time.Millisecond))

	// Trickle the bodies: a byte per connection every 200 ms, until the server hangs up.
	stop := make(chan struct{})
	var trickle sync.WaitGroup
	trickle.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			for i := 1; i < len(conns); i += 2 {
				conns[i].SetWriteDeadline(time.Now().Add(10 * time.Millisecond))
				conns[i].Write([]byte(" "))
			}
		}
	})
	defer func() { close(stop); trickle.Wait() }()

	for _, path := range []string{"/api/ontology", "/api/benchmarks"} {
		began := time.Now()
		if status, code := rs.ask(t, "GET", path, "", ""); status != http.StatusOK {
			t.Fatalf("GET %s beside the slow clients: %d %s", path, status, code)
		}
		if took := time.Since(began); took > time.Second {
			t.Errorf("GET %s beside %d slow clients took %v, want at most 1 s", path, slow, took)
		} else {
			t.Logf("GET %s beside %d slow clients: %v", path, slow, took.Round(time.Microsecond))
		}
	}

	// Every slow connection is closed by the server: a read ends (EOF, or the answer to a
	// request cut short) within the read timeout and a margin.
	var closed sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for _, c := range conns {
		closed.Go(func() {
			c.SetReadDeadline(start.Add(15 * time.Second))
			_, err := bufio.NewReader(c).ReadByte()
			for err == nil {
				_, err = c.Read(make([]byte, 4096))
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		})
	}
	closed.Wait()
	if open > 0 {
		t.Errorf("%d of %d slow connections were still open 15 s after they started", open, slow)
	}
	t.Logf("all slow connections closed by the server %v after they started", time.Since(start).Round(time.Millisecond))
}

// TestHardeningConnectionLimit: at most MaxConns connections are open at once; the next
// waits until one closes, and is then served.
func TestHardeningConnectionLimit(t *testing.T) {
	const limit = 8
	rs := serveReal(t, Config{MaxConns: limit}, nil)
	addr := "127.0.0.1:" + rs.port
	var held []net.Conn
	for range limit {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /api/ontology HTTP/1.1\r\nHost: %s\r\n", addr) // unfinished
		held = append(held, c)
	}
	client := &http.Client{Timeout: 500 * time.Millisecond}
	if resp, err := client.Get(rs.base + "/api/ontology"); err == nil {
		resp.Body.Close()
		t.Fatalf("a connection beyond the limit of %d was served", limit)
	}
	held[0].Close()
	client.Timeout = 5 * time.Second
	resp, err := client.Get(rs.base + "/api/ontology")
	if err != nil {
		t.Fatalf("once a connection closed: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("once a connection closed: %d", resp.StatusCode)
	}
}
