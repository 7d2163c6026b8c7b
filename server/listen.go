package server

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// The server survives slow and greedy clients: each connection has a bounded time to send
// its request (ReadHeaderTimeout for the header, ReadTimeout for the header and body
// together; an upload has uploadTimeout for its body), an idle connection is closed after
// IdleTimeout, and at most Config.MaxConns connections are open at once (Listen), so that
// clients cannot take the file descriptors the store, the datasets and the adapters need;
// raw uploads take at most half of those connections (maxUploads).
// Answers have no write timeout: an event stream lasts as long as its run and an export as
// long as its rows.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = time.Minute
	IdleTimeout       = time.Minute
	maxHeaderBytes    = 64 << 10
)

// HTTPServer returns an HTTP server of s's handler with the timeouts above.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// Listen listens on Config.Addr, taking at most maxConns connections at once: once that
// many are open, the next waits in the kernel's queue until one closes.
func (s *Server) Listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return nil, err
	}
	return LimitListener(ln, s.maxConns()), nil
}

// maxConns is Config.MaxConns, at most a quarter of the file descriptors the process may
// open: a connection may hold a second one, an upload's temporary file, and the other half
// is for the store, datasets, artifacts and the adapters' pipes. (With `ulimit -n 1024` and
// half, 503 slow uploads took 1,006 descriptors and the server refused everything else.)
func (s *Server) maxConns() int {
	n := s.cfg.MaxConns
	if lim, ok := fdLimit(); ok && uint64(n) > lim/4 {
		n = int(lim / 4)
	}
	return max(n, 1)
}

// maxUploads is how many raw uploads may stream at once: half the connections, so that
// slow uploads (each holds its connection up to uploadTimeout) leave the other half to
// every other request. One more is answered 503 at once.
func (s *Server) maxUploads() int { return max(s.maxConns()/2, 1) }

// LimitListener returns a listener that accepts at most n connections open at once.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

// limitConn gives its slot back when closed, once.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
