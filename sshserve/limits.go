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
