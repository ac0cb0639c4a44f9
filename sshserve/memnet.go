package sshserve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// memListener is a listener without a socket: the web server's handler
// serves the SSH sessions' requests through it, each connection showing
// the SSH client's address as its remote address, so that the server's
// limits per address count the player and not this process.
type memListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newMemListener() *memListener {
	return &memListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

var errListenerClosed = errors.New("sshserve: listener closed")

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, errListenerClosed
	}
}

func (l *memListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *memListener) Addr() net.Addr { return memAddr("farkle-ssh") }

// dial connects to the listener as from the address from.
func (l *memListener) dial(ctx context.Context, from net.Addr) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- &addrConn{Conn: server, remote: from}:
		return client, nil
	case <-l.closed:
		return nil, errListenerClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// client returns an HTTP client whose requests reach the listener as from
// the address from.
func (l *memListener) client(from net.Addr) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return l.dial(ctx, from) },
		// One player's requests; the WebSocket takes its own connection.
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
	}}
}

// addrConn is a pipe's server end showing the SSH client's address.
type addrConn struct {
	net.Conn
	remote net.Addr
}

func (c *addrConn) RemoteAddr() net.Addr { return c.remote }

type memAddr string

func (a memAddr) Network() string { return "memory" }
func (a memAddr) String() string  { return string(a) }
