package sshserve

import (
	"net"
	"sync"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

// conn is what the server keeps of one SSH connection: its client's
// address, the way to tell the client why it is refused before it is in,
// and the pace of its requests.
type conn struct {
	addr     string
	pace     *rate.Limiter // nil: none
	channels *counter      // its open session channels

	mu      sync.Mutex
	preAuth gossh.ServerPreAuthConn // set when authentication starts
}

type connKey struct{}

// connOf returns the connection of ctx (admit made it).
func connOf(ctx ssh.Context) *conn {
	c, _ := ctx.Value(connKey{}).(*conn)
	if c == nil { // not through admit (cannot happen with Serve): no pace, no banner
		c = &conn{addr: hostOf(ctx.RemoteAddr()), channels: newCounter(0)}
	}
	return c
}

// admit counts a TCP connection against its address's cap, closing it
// (nil) when the address has too many open, and keeps what the server
// needs to know of it in ctx.
func (s *Server) admit(ctx ssh.Context, nc net.Conn) net.Conn {
	addr := hostOf(nc.RemoteAddr())
	if !s.conns.take(addr) {
		s.o.Logger.Info("ssh: connection refused: too many from one address", "addr", addr, "limit", s.o.ConnsPerAddress)
		return nil
	}
	c := &conn{addr: addr, channels: newCounter(s.o.Channels)}
	if s.o.RequestRate > 0 {
		c.pace = rate.NewLimiter(rate.Limit(s.o.RequestRate), max(s.o.RequestBurst, 1))
	}
	ctx.SetValue(connKey{}, c)
	return &countedConn{Conn: nc, give: func() { s.conns.give(addr) }}
}

// config is the SSH configuration of the connection of ctx: it keeps the
// connection's way to send authentication banners, to tell a refused
// client why.
func (s *Server) config(ctx ssh.Context) *gossh.ServerConfig {
	c := connOf(ctx)
	return &gossh.ServerConfig{PreAuthConnCallback: func(pa gossh.ServerPreAuthConn) {
		c.mu.Lock()
		c.preAuth = pa
		c.mu.Unlock()
	}}
}

// banner shows msg to the client of c before its authentication ends
// (OpenSSH's ssh prints it on its standard error); it does nothing once
// the client is in.
func (c *conn) banner(msg string) {
	c.mu.Lock()
	pa := c.preAuth
	c.mu.Unlock()
	if pa != nil {
		pa.SendAuthBanner(msg + "\r\n") //nolint:errcheck // the client went away: nobody to tell
	}
}

// wait paces a request of c: it returns once the request may be served,
// or false when ctx ends first.
func (c *conn) wait(ctx ssh.Context) bool {
	return c.pace == nil || c.pace.Wait(ctx) == nil
}

// globalRequest answers a global request (keepalive@openssh.com,
// tcpip-forward, …): none is served, each refused at the connection's pace.
func (s *Server) globalRequest(ctx ssh.Context, _ *ssh.Server, _ *gossh.Request) (bool, []byte) {
	connOf(ctx).wait(ctx)
	return false, nil
}

// otherChannel refuses a channel of any type but "session" (port
// forwarding, X11, …).
func (s *Server) otherChannel(_ *ssh.Server, _ *gossh.ServerConn, nc gossh.NewChannel, _ ssh.Context) {
	nc.Reject(gossh.UnknownChannelType, refusal{key: "cli.ssh.onlySessions"}.everyLanguage()) //nolint:errcheck // refused either way
}
