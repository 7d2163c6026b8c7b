package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
)

// A web page can make a browser send requests to the server: DNS rebinding points a name
// the page controls at 127.0.0.1, and the browser then treats the server as that page's own
// origin. The defence is the Host header: the browser always sends the name it looked up,
// so the server serves only Host values that name it, whatever a request carries otherwise,
// and a browser request's Origin must be one of the server's own origins.
//
// The names that name the server are, with the port the connection came in on:
//   - the IP address the connection came in on (for a bind to all interfaces, any local
//     address a client reaches);
//   - for a connection on loopback: localhost, 127.0.0.1 and [::1] too;
//   - the host of Config.Addr when it is a name (--addr myhost.lan:8080);
// and the names of Config.AllowedHosts: NAME at any port, NAME:PORT at that port only
// (for a reverse proxy, which forwards the name its clients used). Origins are http://
// with one of these names, and also https:// for an allowed host, which only a proxy can
// put in front of this plain-HTTP server.

// hostPolicy is the set of names a server answers to, beyond the addresses it is reached at.
type hostPolicy struct {
	boundName string              // the host of Config.Addr when it is a name, lower case
	boundPort string              // the port of Config.Addr, for requests with no connection address
	boundIP   netip.Addr          // the IP of Config.Addr, for requests with no connection address
	allowed   map[string][]string // allowed host name -> its ports; an empty list is any port
}

// newHostPolicy reads Config.Addr and Config.AllowedHosts (each NAME or NAME:PORT).
func newHostPolicy(addr string, allowed []string) (*hostPolicy, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	p := &hostPolicy{boundPort: normalPort(port), allowed: map[string][]string{}}
	if ip, err := netip.ParseAddr(host); err == nil {
		p.boundIP = ip.Unmap()
	} else if host != "" {
		p.boundName = strings.ToLower(host)
	}
	for _, a := range allowed {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		name, port := a, ""
		if h, pt, err := net.SplitHostPort(a); err == nil {
			name, port = h, pt
		}
		name = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
		if !validHostName(name) || (port != "" && !validPort(port)) {
			return nil, fmt.Errorf("allowed host %q: give a host name, or NAME:PORT", a)
		}
		if ip, err := netip.ParseAddr(name); err == nil && ip.Is6() {
			name = "[" + name + "]" // as a Host header carries it
		}
		port = normalPort(port)
		if port == "" {
			p.allowed[name] = []string{}
		} else if ports, ok := p.allowed[name]; !ok || len(ports) > 0 {
			p.allowed[name] = append(ports, port)
		}
	}
	return p, nil
}

// validHostName accepts DNS names and IP literals (an IPv6 one without brackets).
func validHostName(name string) bool {
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	if name == "" || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

func validPort(port string) bool {
	n, err := strconv.ParseUint(port, 10, 16)
	return err == nil && n > 0
}

// normalPort writes a port number without leading zeros ("" stays "").
func normalPort(port string) string {
	if n, err := strconv.ParseUint(port, 10, 16); err == nil {
		return strconv.FormatUint(n, 10)
	}
	return port
}

// local is the address a request came in on: the connection's, else Config.Addr's.
func (p *hostPolicy) local(r *http.Request) (netip.Addr, string) {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if ap, err := netip.ParseAddrPort(a.String()); err == nil {
			return ap.Addr().Unmap().WithZone(""), strconv.Itoa(int(ap.Port()))
		}
	}
	return p.boundIP, p.boundPort
}

// names reports whether host:port names the server reached at local:localPort. With https,
// only the allowed hosts qualify.
func (p *hostPolicy) names(host, port string, https bool, local netip.Addr, localPort string) bool {
	host = strings.ToLower(host)
	if ports, ok := p.allowed[host]; ok && (len(ports) == 0 || slices.Contains(ports, port)) {
		return true
	}
	if https || port != localPort {
		return false
	}
	if host == p.boundName {
		return true
	}
	ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if err != nil {
		return host == "localhost" && local.IsLoopback()
	}
	if ip.Zone() != "" || (strings.Contains(host, ":") != strings.HasPrefix(host, "[")) {
		return false // an IPv6 literal is bracketed in a Host header, with no zone
	}
	ip = ip.Unmap()
	if ip == local {
		return true
	}
	return local.IsLoopback() && (ip == netip.MustParseAddr("127.0.0.1") || ip == netip.IPv6Loopback())
}

// check answers whether a request may be served: its Host names the server, and its Origin,
// when it has one, is one of the server's origins. It returns the error code and message of
// a refusal.
func (p *hostPolicy) check(r *http.Request) (code api.Code, message string, ok bool) {
	local, localPort := p.local(r)
	host, port, found := splitHostPort(r.Host, "80")
	if !found || !p.names(host, port, false, local, localPort) {
		return api.ForbiddenHost, "this server answers only to its own address (Host " + quoteShort(r.Host) + " is not one); serve it with --allowed-host NAME to add a name", false
	}
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		return "", "", true // not a browser, or a same-origin navigation
	}
	if len(origins) > 1 || !p.origin(origins[0], local, localPort) {
		return api.CrossOrigin, "requests from a browser must come from this server's own pages (Origin " + quoteShort(origins[0]) + " is not one)", false
	}
	return "", "", true
}

// origin reports whether an Origin header is one of the server's origins.
func (p *hostPolicy) origin(origin string, local netip.Addr, localPort string) bool {
	rest, ok := strings.CutPrefix(origin, "http://")
	https := false
	if !ok {
		if rest, ok = strings.CutPrefix(origin, "https://"); !ok {
			return false // "null" (a sandboxed frame, a file://) included
		}
		https = true
	}
	def := "80"
	if https {
		def = "443"
	}
	host, port, found := splitHostPort(rest, def)
	return found && p.names(host, port, https, local, localPort)
}

// splitHostPort splits "host[:port]" (an IPv6 host bracketed); a missing port is def. A
// bracketed IPv6 host keeps its brackets. found is false for what is not a host.
func splitHostPort(s, def string) (host, port string, found bool) {
	if s == "" || strings.ContainsAny(s, "/?#@ \t\\") {
		return "", "", false
	}
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", "", false
		}
		host, rest := s[:end+1], s[end+1:]
		if rest == "" {
			return host, def, true
		}
		port, ok := strings.CutPrefix(rest, ":")
		return host, normalPort(port), ok && validPort(port)
	}
	host, port, ok := strings.Cut(s, ":")
	if !ok {
		return host, def, true
	}
	return host, normalPort(port), validPort(port) && host != ""
}

// quoteShort quotes a header value for a message, cut to a readable length.
func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return fmt.Sprintf("%q", s)
}
