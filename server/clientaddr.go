package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseProxies reads a comma-separated list of trusted proxies, each a
// CIDR prefix (10.0.0.0/8) or a single address (127.0.0.1), as the
// --trusted-proxies flag takes it. Empty means none.
func ParseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an address or CIDR prefix (e.g. 10.0.0.0/8, 127.0.0.1)", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// peerAddr returns the TCP peer of the request.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// trusted says whether a is one of the trusted proxies.
func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.opt.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// fromTrustedProxy says whether the request's TCP peer is a trusted proxy,
// whose forwarding headers are then believed.
func (s *Server) fromTrustedProxy(r *http.Request) bool {
	a, ok := peerAddr(r)
	return ok && s.trusted(a)
}

// clientAddr returns the address of the client that sent the request: the
// TCP peer, or, when the peer is a trusted proxy, the address it forwarded
// (the last X-Forwarded-For entry that is not itself a trusted proxy, or
// X-Real-IP). Every per-address limit uses it.
func (s *Server) clientAddr(r *http.Request) netip.Addr {
	peer, ok := peerAddr(r)
	if !ok || !s.trusted(peer) {
		return peer
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	// The proxies append: read from the right, skipping our own proxies;
	// anything left of the first stranger is the client's say-so.
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		a = a.Unmap().WithZone("")
		if !s.trusted(a) || i == 0 {
			return a
		}
	}
	if a, err := netip.ParseAddr(strings.TrimSpace(r.Header.Get("X-Real-IP"))); err == nil {
		return a.Unmap().WithZone("")
	}
	return peer
}

// addrKey is the key of a client address in the per-address limits: the
// address itself, or for IPv6 its /64 network, which one subscriber
// usually holds whole.
func addrKey(a netip.Addr) string {
	if !a.IsValid() {
		return "unknown"
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// secureRequest says whether the client reached the server over HTTPS:
// directly over TLS, through a trusted proxy saying X-Forwarded-Proto:
// https, or on a server whose --public-url is https.
func (s *Server) secureRequest(r *http.Request) bool {
	if r.TLS != nil || s.publicHTTPS {
		return true
	}
	return s.fromTrustedProxy(r) && strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https")
}
