package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
)

// A client's writer sends each message as it comes: one write to the
// network a message. But a client that fell behind (its queue holds
// several messages: a table with thousands of watchers, a server short of
// CPU) would cost a write, the costliest part of a message, for each. Its
// writer corks the connection instead: the messages already queued go out
// in one write, as many frames, so that the further behind a client is, the
// less each of its messages costs. Nothing waits for more to come.

// A player's message needs no writer at all most of the time: the
// goroutine that makes it (the actor's, which has just committed the
// action) writes it to the socket itself with one write that never waits
// (tryWrite), when nothing is queued before it. Waking the player's writer
// for each update cost two goroutine wakeups an action, on two cores a
// good part of its cost. A socket that takes only part of the frame (its
// buffer full: a slow reader) keeps the rest (tail), which goes first
// with the next write; the client's writer is woken to send it, and the
// messages after it are queued, as before, so the table never waits.

// maxCork is about the most bytes a cork holds before the writer releases
// it: one message more may pass it.
const maxCork = 64 << 10

// corkConn is a connection whose writes can be held back (hold) and sent
// together in one write (release). Writes go through at once otherwise.
type corkConn struct {
	net.Conn
	mu   sync.Mutex // held through a write to the network, so bytes keep their order
	held bool
	buf  []byte
	// raw is the socket, for a write that must not wait (tryWrite); nil
	// where the connection is no socket of its own (TLS): then every
	// message goes through the client's writer.
	raw syscall.RawConn
	// tail is the part of a frame tryWrite could not send: it goes first
	// with the next write.
	tail []byte
	// tryWrite's frame and its count written, for writeOnce (made once:
	// a closure a message would cost an allocation).
	frame []byte
	wrote int
	once  func(fd uintptr) bool
	// ended: the client is closing; no message frame passes any more
	// (the library's close frame, after it, must be the last frame). Not
	// under mu: a writer stuck in a write holds mu, and the close that
	// ends it must not wait for it.
	ended atomic.Bool
}

// writeFrame sends a message's whole frame (wsframe.go), written by the
// client's writer itself rather than through the WebSocket library: in
// one Write, under mu, so that a control frame the library writes
// meanwhile from another goroutine (a pong, the close) never lands inside
// it; none once the client is closing (end).
func (c *corkConn) writeFrame(frame []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended.Load() {
		return net.ErrClosed
	}
	if c.held {
		c.buf = append(c.buf, frame...)
		return nil
	}
	if err := c.flushTail(); err != nil || len(frame) == 0 {
		return err
	}
	_, err := c.Conn.Write(frame)
	return err
}

// flushTail writes what tryWrite left, waiting as long as it takes. mu is
// held.
func (c *corkConn) flushTail() error {
	if c.tail == nil {
		return nil
	}
	_, err := c.Conn.Write(c.tail)
	c.tail = nil
	return err
}

// tryWrite sends frame with one write to the socket that never waits, if
// nothing is held or left before it. done says whether the frame is dealt
// with: sent; or sent in part, the rest kept to go first with the next
// write (tail true: the client's writer must be woken to send it); or
// dropped, the client closing. done false: nothing was written, the frame
// is for the client's writer. It never blocks.
func (c *corkConn) tryWrite(frame []byte) (done, tail bool) {
	// Never wait for mu: whoever holds it may be in a write that waits
	// for a slow reader (the writer's, or the library's ping or pong).
	if c.raw == nil || !c.mu.TryLock() {
		return false, false
	}
	defer c.mu.Unlock()
	if c.ended.Load() {
		return true, false
	}
	if c.held || c.tail != nil {
		return false, false
	}
	if c.once == nil {
		c.once = c.writeOnce
	}
	c.frame, c.wrote = frame, -1
	err := c.raw.Write(c.once)
	n := c.wrote
	c.frame = nil
	if err != nil || n < 0 {
		return false, false // closed: the writer's write says so
	}
	if n == len(frame) {
		return true, false
	}
	c.tail = frame[n:] // a message's frame is never changed: no copy
	return true, true
}

// end lets no message frame through from now on: the client is closing.
// A frame already being written goes on; any frame after the close frame,
// which is written after end, sees it (its check and write are under mu).
func (c *corkConn) end() { c.ended.Store(true) }

// Write sends p, or keeps it while the connection is corked.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	if err := c.flushTail(); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

// hold corks the connection: writes are kept until release.
func (c *corkConn) hold() {
	c.mu.Lock()
	c.held = true
	c.mu.Unlock()
}

// holding returns the bytes the cork keeps.
func (c *corkConn) holding() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.buf)
}

// release uncorks the connection, sending what it kept in one write.
func (c *corkConn) release() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = false
	if err := c.flushTail(); err != nil || len(c.buf) == 0 {
		c.buf = c.buf[:0]
		return err
	}
	_, err := c.Conn.Write(c.buf)
	if cap(c.buf) > 2*maxCork {
		c.buf = nil // a burst's buffer is not kept for the connection's life
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// corkWriter hands the WebSocket library a corkConn when it takes the
// connection over (Hijack); conn is that connection, nil before.
type corkWriter struct {
	http.ResponseWriter
	conn *corkConn
}

// Hijack takes the connection over as a corkConn, its buffered writer
// writing through it.
func (w *corkWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		nc.Close()
		return nil, nil, err
	}
	w.conn = &corkConn{Conn: nc}
	w.conn.raw = rawSocket(nc)
	brw.Writer.Reset(w.conn)
	return w.conn, brw, nil
}

// Unwrap lets http.ResponseController reach the writer underneath.
func (w *corkWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
