package server

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
)

// countingConn counts the writes that reach the network.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *countingConn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// recordConn keeps what is written to it, each write apart.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (c *recordConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, bytes.Clone(p))
	return len(p), nil
}

// TestCorkConn: writes go through at once, except while the connection is
// corked, when they are kept, in order, and sent in one write on release.
func TestCorkConn(t *testing.T) {
	rc := &recordConn{}
	c := &corkConn{Conn: rc}
	c.Write([]byte("a"))
	if len(rc.writes) != 1 {
		t.Fatalf("an uncorked write made %d writes, want 1", len(rc.writes))
	}
	c.hold()
	c.Write([]byte("bc"))
	c.Write([]byte("d"))
	if len(rc.writes) != 1 || c.holding() != 3 {
		t.Fatalf("corked: %d writes reached the network and %d bytes are held; want 1 and 3", len(rc.writes), c.holding())
	}
	if err := c.release(); err != nil {
		t.Fatal(err)
	}
	if err := c.release(); err != nil { // nothing held: no write
		t.Fatal(err)
	}
	c.Write([]byte("e"))
	got := fmt.Sprintf("%q", rc.writes)
	if want := `["a" "bcd" "e"]`; got != want {
		t.Fatalf("writes %s, want %s", got, want)
	}
}

// TestWriterCorksABacklog: a client whose queue holds messages when its
// writer gets to them receives them all, in order and whole, through far
// fewer writes to the network than messages; a message alone goes out at
// once in a write of its own.
func TestWriterCorksABacklog(t *testing.T) {
	const queued = 200
	accepted := make(chan *client, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &corkWriter{ResponseWriter: w}
		conn, err := websocket.Accept(cw, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		c := &client{conn: conn, cork: cw.conn, out: make(chan []byte, sendBuffer), done: make(chan struct{})}
		accepted <- c
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx := context.Background()
	peer, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.CloseNow()
	c := <-accepted
	cc := &countingConn{Conn: c.cork.Conn}
	c.cork.Conn = cc
	for i := range queued {
		c.out <- fmt.Appendf(nil, `{"n":%d,"pad":%q}`, i, strings.Repeat("x", i*7%900))
	}
	for len(c.out) > 0 {
		if err := c.write(<-c.out); err != nil {
			t.Fatal(err)
		}
	}
	for i := range queued {
		_, b, err := peer.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"n":%d,"pad":%q}`, i, strings.Repeat("x", i*7%900)); string(b) != want {
			t.Fatalf("message %d is %.40s…, want %.40s…", i, b, want)
		}
	}
	if n := cc.count(); n >= queued/10 {
		t.Fatalf("%d queued messages took %d writes to the network", queued, n)
	}
	before := cc.count()
	if err := c.write([]byte(`"alone"`)); err != nil {
		t.Fatal(err)
	}
	if n := cc.count() - before; n != 1 {
		t.Fatalf("a message alone took %d writes, want 1", n)
	}
	if _, b, err := peer.Read(ctx); err != nil || string(b) != `"alone"` {
		t.Fatalf("read %q, %v", b, err)
	}
}
