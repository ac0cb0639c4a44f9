//go:build !unix

package server

import (
	"net"
	"syscall"
)

// rawSocket is nil off Unix: every message goes through the client's
// writer (tryWrite writes nothing).
func rawSocket(net.Conn) syscall.RawConn { return nil }

// writeOnce is never called off Unix (rawSocket is nil).
func (c *corkConn) writeOnce(uintptr) bool { return true }
