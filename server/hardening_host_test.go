package server

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
)

// realServer is the server as `benchy serve` runs it: Listen (the connection limit) and
// HTTPServer (the timeouts) on loopback; tune may change the HTTP server's settings first.
type realServer struct {
	*Server
	base string // http://127.0.0.1:PORT
	port string
	hs   *http.Server
}

func serveReal(t *testing.T, cfg Config, tune func(*http.Server)) *realServer {
	t.Helper()
	if cfg.Workspace == "" {
		cfg.Workspace, _ = workspace(t)
	}
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	hs := s.HTTPServer()
	if tune != nil {
		tune(hs)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { s.Close(); hs.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return &realServer{Server: s, base: "http://127.0.0.1:" + port, port: port, hs: hs}
}

// ask sends a request to the real server with the given Host and headers (pairs), and
// returns the status and the error code of the answer ("" when it is not an API error).
func (rs *realServer) ask(t *testing.T, method, path, host, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, rs.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s (Host %s): %v", method, path, host, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var e api.Error
	json.Unmarshal(data, &e)
	return resp.StatusCode, string(e.Error.Code)
}

// everyEndpoint is one request of each kind the server answers: the app's pages and files,
// API reads, the event stream and state changes.
var everyEndpoint = []struct{ method, path, body string }{
	{"GET", "/", ""},
	{"GET", "/runs", ""},
	{"GET", "/app.js", ""},
	{"GET", "/web/app.wasm", ""},
	{"GET", "/web/benchy.css", ""},
	{"GET", "/api/ontology", ""},
	{"GET", "/api/benchmarks", ""},
	{"GET", "/api/benchmarks/invoices/benchmark.yaml", ""},
	{"GET", "/api/bindings", ""},
	{"GET", "/api/runs", ""},
	{"GET", "/api/runs/none/events", ""},
	{"POST", "/api/compile", `{"yaml": "version: \"1.0\"\n"}`},
	{"PUT", "/api/benchmarks/pwned.yaml", `{"yaml": "pwned: true\n"}`},
	{"POST", "/api/runs", `{"benchmark": "invoices/benchmark.yaml"}`},
}

// TestHardeningDNSRebinding: a page that rebinds its name to 127.0.0.1 sends the server its
// own name as Host (and its own origin as Origin, a pair that used to pass the same-origin
// check). Only Host values naming the bound address are served, on every endpoint, and an
// Origin must be one of the server's own.
func TestHardeningDNSRebinding(t *testing.T) {
	rs := serveReal(t, Config{AllowedHosts: []string{"bench.example", "proxy.example:9443"}}, nil)
	own := "127.0.0.1:" + rs.port
	refused := []struct{ host, origin, code string }{
		{"attacker.example:" + rs.port, "http://attacker.example:" + rs.port, "forbidden_host"}, // the rebinding pair
		{"attacker.example:" + rs.port, "", "forbidden_host"},
		{"attacker.example", "", "forbidden_host"},
		{"127.0.0.1:1", "", "forbidden_host"}, // not the bound port
		{"127.0.0.1", "", "forbidden_host"},   // port 80
		{"localhost.attacker.example:" + rs.port, "", "forbidden_host"},
		{"proxy.example:9444", "", "forbidden_host"}, // allowed at 9443 only
		{own, "http://attacker.example:" + rs.port, "cross_origin"},
		{own, "https://127.0.0.1:" + rs.port, "cross_origin"}, // https only for allowed hosts
		{own, "http://127.0.0.1:1", "cross_origin"},
		{own, "null", "cross_origin"},
		{own, "http://127.0.0.1:" + rs.port + "/path", "cross_origin"},
	}
	for _, e := range everyEndpoint {
		for _, c := range refused {
			var header []string
			if c.origin != "" {
				header = []string{"Origin", c.origin}
			}
			if status, code := rs.ask(t, e.method, e.path, c.host, e.body, header...); status != http.StatusForbidden || code != c.code {
				t.Errorf("%s %s, Host %q, Origin %q: %d %q, want 403 %s", e.method, e.path, c.host, c.origin, status, code, c.code)
			}
		}
	}
	served := []struct{ host, origin string }{
		{own, ""},
		{own, "http://" + own},
		{"localhost:" + rs.port, "http://localhost:" + rs.port},
		{"LOCALHOST:" + rs.port, "http://127.0.0.1:" + rs.port},
		{"[::1]:" + rs.port, "http://[::1]:" + rs.port},
		{"bench.example", "https://bench.example"},
		{"bench.example:8443", "http://bench.example:8443"},
		{"proxy.example:9443", "https://proxy.example:9443"},
	}
	for _, e := range everyEndpoint[:6] { // reads: the state changes are checked below
		for _, c := range served {
			var header []string
			if c.origin != "" {
				header = []string{"Origin", c.origin}
			}
			if status, code := rs.ask(t, e.method, e.path, c.host, e.body, header...); status == http.StatusForbidden {
				t.Errorf("%s %s, Host %q, Origin %q: 403 %s", e.method, e.path, c.host, c.origin, code)
			}
		}
	}
	if status, _ := rs.ask(t, "POST", "/api/compile", own, `{"yaml": ""}`, "Origin", "http://"+own); status != http.StatusOK {
		t.Errorf("a state change from the server's own page: %d", status)
	}
	if _, err := New(Config{Workspace: t.TempDir(), AllowedHosts: []string{"bad host!"}}); err == nil {
		t.Error("an allowed host that is not a name was taken")
	}
}

// TestHardeningDNSRebindingAllInterfaces: bound to every interface, the server answers to
// the address a client reached it at (here loopback, so localhost too), not to other names.
func TestHardeningDNSRebindingAllInterfaces(t *testing.T) {
	rs := serveReal(t, Config{Addr: "0.0.0.0:0", Token: testToken}, nil)
	auth := []string{"Authorization", "Bearer " + testToken}
	for host, want := range map[string]int{
		"127.0.0.1:" + rs.port:        http.StatusOK,
		"localhost:" + rs.port:        http.StatusOK,
		"192.0.2.7:" + rs.port:        http.StatusForbidden, // an address the client did not reach
		"attacker.example:" + rs.port: http.StatusForbidden,
	} {
		if status, code := rs.ask(t, "GET", "/api/ontology", host, "", auth...); status != want {
			t.Errorf("Host %s: %d %s, want %d", host, status, code, want)
		}
	}
}

// dial opens a raw connection to the real server.
func dial(t *testing.T, rs *realServer) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", "127.0.0.1:"+rs.port)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
