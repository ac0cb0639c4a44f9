package sshserve

import (
	"net"
	"sync"
)

// counter counts what is open per key (a fingerprint, an address) up to a
// limit (0: none).
type counter struct {
	mu    sync.Mutex
	limit int
	open  map[string]int
}

func newCounter(limit int) *counter { return &counter{limit: limit, open: map[string]int{}} }

// full reports whether key is at its limit.
func (c *counter) full(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.limit > 0 && c.open[key] >= c.limit
}

// take counts one more for key, unless it is at its limit.
func (c *counter) take(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.limit > 0 && c.open[key] >= c.limit {
		return false
	}
	c.open[key]++
	return true
}

// give counts one less for key.
func (c *counter) give(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open[key] <= 1 {
		delete(c.open, key)
		return
	}
	c.open[key]--
}

// hostOf is the address a limit per address counts: the IP of a TCP
// address (an IPv6 address by its /64, as the web server counts).
func hostOf(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}

// countedConn gives its count back once when closed.
type countedConn struct {
	net.Conn
	once sync.Once
	give func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.give)
	return c.Conn.Close()
}

// place is one cap a session counts against: a counter, the key it counts
// under there, and what a refused session is told.
type place struct {
	c   *counter
	key string
	why refusal
}

// places are the caps a session of the key fp on c counts against for as
// long as its channel is open: its connection's channels, its key's and
// its address's sessions, and the server's.
func (s *Server) places(c *conn, fp string) []place {
	return []place{
		{c.channels, "", refusal{"cli.ssh.perConnection", []any{"n", s.o.Channels}}},
		{s.keys, fp, refusal{"cli.ssh.perKey", []any{"n", s.o.PerKey}}},
		{s.addrs, c.addr, refusal{"cli.ssh.perAddress", []any{"n", s.o.PerAddress, "addr", c.addr}}},
		{s.all, "", refusal{"cli.ssh.full", []any{"n", s.o.Sessions}}},
	}
}

// room says why a session of the key fp on c would be refused now, taking
// nothing (at authentication).
func (s *Server) room(c *conn, fp string) refusal {
	for _, p := range s.places(c, fp) {
		if p.c.full(p.key) {
			return p.why
		}
	}
	return refusal{}
}

// take takes a session's place under every cap, or none: it returns why
// it is refused, or the function that gives the places back.
func (s *Server) take(c *conn, fp string) (refusal, func()) {
	ps := s.places(c, fp)
	for i, p := range ps {
		if !p.c.take(p.key) {
			for _, q := range ps[:i] {
				q.c.give(q.key)
			}
			return p.why, nil
		}
	}
	return refusal{}, func() {
		for _, p := range ps {
			p.c.give(p.key)
		}
	}
}
