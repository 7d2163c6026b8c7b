package server

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fdServerEnv names the workspace of the server TestHardeningUploadsFileLimit starts in a
// process of its own (this test binary again, running TestHardeningFileLimitServer).
const fdServerEnv = "BENCHY_TEST_FD_SERVER"

// TestHardeningFileLimitServer is not a test: it is the server of
// TestHardeningUploadsFileLimit, run in a child process whose soft limit of open files is
// 1,024 (`ulimit -n 1024`). It prints the address it listens on, then serves until killed.
func TestHardeningFileLimitServer(t *testing.T) {
	dir := os.Getenv(fdServerEnv)
	if dir == "" {
		t.Skip("the server of TestHardeningUploadsFileLimit, in its own process")
	}
	lim := syscall.Rlimit{Cur: 1024, Max: 1024}
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &cur); err == nil && cur.Max < lim.Max {
		lim.Max = cur.Max
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Workspace: dir, Addr: "127.0.0.1:0", Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("LISTEN %s %d %d\n", ln.Addr(), s.maxConns(), s.maxUploads())
	s.HTTPServer().Serve(ln)
}

// TestHardeningUploadsFileLimit (issue 11 hardening, slow uploads took every file
// descriptor): a server limited to 1,024 open files and sent 503 slow raw uploads (each
// holds a connection and a temporary file) keeps descriptors for everything else: at most
// a quarter of the limit are connections and half of those stream uploads; the uploads
// beyond are answered 503 busy at once, and an unrelated request still answers (before: 512
// connections, 1,006 descriptors, accept failing with "too many open files").
func TestHardeningUploadsFileLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("holds 503 uploads open in a server process of its own")
	}
	const uploads = 503
	raiseFileLimit(t, 2*uploads+256)
	dir, _ := workspace(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHardeningFileLimitServer$")
	cmd.Env = append(os.Environ(), fdServerEnv+"="+dir)
	var stderr bytes.Buffer
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return stderr.Write(p) })
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var addr string
	var conns, streams int
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if _, err := fmt.Sscanf(lines.Text(), "LISTEN %s %d %d", &addr, &conns, &streams); err == nil {
			break
		}
	}
	if addr == "" {
		t.Fatalf("the server did not start:\n%s", stderr.String())
	}
	t.Logf("the server, at 1,024 files, takes %d connections, %d uploads streaming", conns, streams)
	if conns > 256 || streams > conns/2 {
		t.Errorf("%d connections and %d uploads for 1,024 files, want at most 256 and half of them", conns, streams)
	}

	held := make([]net.Conn, 0, uploads)
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := range uploads {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
		held = append(held, c)
		fmt.Fprintf(c, "PUT /api/files/up/%d.jsonl HTTP/1.1\r\nHost: %s\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n{\"a\": 1}\n", i, addr)
	}
	time.Sleep(time.Second) // the server takes what it takes of them

	client := &http.Client{Timeout: 10 * time.Second}
	began := time.Now()
	resp, err := client.Get("http://" + addr + "/api/ontology")
	took := time.Since(began)
	if err != nil {
		t.Fatalf("a request beside %d slow uploads: %v\n%s", uploads, err, stderr.String())
	}
	resp.Body.Close()
	t.Logf("GET /api/ontology beside %d slow uploads: %d in %v", uploads, resp.StatusCode, took.Round(time.Millisecond))
	if resp.StatusCode != http.StatusOK || took > 3*time.Second {
		t.Errorf("GET /api/ontology beside %d slow uploads: %d after %v, want 200 within 3 s", uploads, resp.StatusCode, took)
	}
	// The uploads beyond those streaming were told to come back.
	busy := 0
	for _, c := range held {
		c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		line, _ := bufio.NewReader(c).ReadString('\n')
		if strings.HasPrefix(line, "HTTP/1.1 503") {
			busy++
		}
	}
	t.Logf("%d uploads answered 503 busy", busy)
	if busy < uploads-conns {
		t.Errorf("%d uploads answered 503, want at least %d", busy, uploads-conns)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(stderr.String(), "too many open files") {
		t.Errorf("the server ran out of file descriptors:\n%s", stderr.String())
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, tempDir)); len(entries) > streams {
		t.Errorf("%d temporary files, want at most %d", len(entries), streams)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestHardeningLongUploadName (issue 11 hardening, a valid name refused as unwritable):
// a file of 250 characters, near the 255 a name may have, is uploaded and saved: the
// temporary file has a short name of its own, not the target's with 17 more.
func TestHardeningLongUploadName(t *testing.T) {
	dir, _ := workspace(t)
	_, srv := serve(t, Config{Workspace: dir})
	long := strings.Repeat("n", 244) // and .jsonl: 250
	for _, tt := range []struct{ path, body, ct string }{
		{"data/" + long + ".jsonl", "{}\n", "application/octet-stream"},
		{"data/" + long[:243] + ".txt", b64("text\n"), "application/json"},
	} {
		if r := call(t, srv, "PUT", "/api/files/"+tt.path, tt.body, "Content-Type", tt.ct); r.status != http.StatusOK {
			t.Errorf("PUT a name of %d characters: %d %s", len(filepath.Base(tt.path)), r.status, r.body)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(tt.path))); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	name := "b" + strings.Repeat("x", 244) + ".yaml" // 250
	if r := call(t, srv, "PUT", "/api/benchmarks/"+name, `{"yaml": "version: \"1.0\"\n"}`); r.status != http.StatusOK {
		t.Errorf("save a benchmark of %d characters: %d %s", len(name), r.status, r.body)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, tempDir)); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}
