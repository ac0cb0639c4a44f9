//go:build unix

package server

import (
	"net"
	"syscall"
)

// rawSocket is nc's socket for a write that never waits (tryWrite), or
// nil where nc is no socket of its own (TLS).
func rawSocket(nc net.Conn) syscall.RawConn {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}

// writeOnce is raw.Write's function for tryWrite: one write of frame to
// the socket fd, its count in wrote. A socket is non-blocking: EAGAIN (a
// full buffer) writes nothing and returns at once. Any other error is
// left for the writer's own write of the tail to meet and handle. mu is
// held.
func (c *corkConn) writeOnce(fd uintptr) bool {
	n, _ := syscall.Write(int(fd), c.frame)
	c.wrote = max(n, 0)
	return true // never wait for the socket to be writable
}
