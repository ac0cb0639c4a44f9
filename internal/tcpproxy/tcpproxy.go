// Package tcpproxy is a TCP proxy for tests that need a network to go
// away: Drop cuts the connections made so far (clients may connect again),
// Close cuts them and takes no more.
package tcpproxy

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards every TCP connection it accepts to one target.
type Proxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

// New starts a proxy to target on a free local port; it is closed when
// the test ends.
func New(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, d)
			p.mu.Unlock()
			go func() { io.Copy(d, c); d.Close() }()
			go func() { io.Copy(c, d); c.Close() }()
		}
	}()
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's address, host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Drop closes every connection made so far and returns how many there
// were; new ones are still forwarded.
func (p *Proxy) Drop() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	n := len(p.conns) / 2
	p.conns = nil
	return n
}

// Close closes every connection and takes no more.
func (p *Proxy) Close() {
	p.ln.Close()
	p.Drop()
}
