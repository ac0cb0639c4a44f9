package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// acceptedClient returns a client accepted as the server accepts one (its
// connection corkable), the peer's end of it, and the count of the
// client's writes to the network.
func acceptedClient(t testing.TB) (*client, *websocket.Conn, *countingConn) {
	t.Helper()
	accepted := make(chan *client, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &corkWriter{ResponseWriter: w}
		conn, err := websocket.Accept(cw, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		c := &client{conn: conn, cork: cw.conn, out: make(chan *message, sendBuffer), done: make(chan struct{})}
		accepted <- c
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	peer, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.CloseNow() })
	c := <-accepted
	cc := &countingConn{Conn: c.cork.Conn}
	c.cork.Conn = cc
	return c, peer, cc
}

// TestMessageFrames: a message framed by the server itself (wsframe.go)
// reaches a WebSocket peer whole at every length the header encodes
// differently (one byte, 126 and two, 127 and eight, and their edges),
// alone or corked behind others; once the client is closing no frame of
// a message reaches the network.
func TestMessageFrames(t *testing.T) {
	c, peer, cc := acceptedClient(t)
	peer.SetReadLimit(1 << 20)
	ctx := context.Background()
	sizes := []int{0, 1, 125, 126, 127, 65535, 65536, 65537, 300000}
	payload := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		return b
	}
	for _, corked := range []bool{false, true} {
		// The writer as writeLoop runs it, beside the peer's reads (the
		// messages are more than the socket's buffers hold).
		wrote := make(chan error, 1)
		go func() {
			if corked { // all queued first: the writer corks them
				for _, n := range sizes {
					c.out <- newMessage(payload(n))
				}
			}
			for _, n := range sizes {
				m := newMessage(payload(n))
				if corked {
					if len(c.out) == 0 {
						break
					}
					m = <-c.out
				}
				if err := c.write(m); err != nil {
					wrote <- err
					return
				}
			}
			wrote <- nil
		}()
		for _, n := range sizes {
			typ, b, err := peer.Read(ctx)
			if err != nil {
				t.Fatalf("corked %v: the message of %d bytes: %v", corked, n, err)
			}
			if typ != websocket.MessageText || !bytes.Equal(b, payload(n)) {
				t.Fatalf("corked %v: sent %d bytes, read %v of %d bytes", corked, n, typ, len(b))
			}
		}
		if err := <-wrote; err != nil {
			t.Fatal(err)
		}
	}
	before := cc.count()
	c.cork.end()
	if err := c.write(newMessage([]byte(`"late"`))); err == nil {
		t.Fatal("a message was written after the client's close began")
	}
	if n := cc.count() - before; n != 0 {
		t.Fatalf("%d writes reached the network after the client's close began", n)
	}
}

// TestWriterCorksABacklog: a client whose queue holds messages when its
// writer gets to them receives them all, in order and whole, through far
// fewer writes to the network than messages; a message alone goes out at
// once in a write of its own.
func TestWriterCorksABacklog(t *testing.T) {
	const queued = 200
	c, peer, cc := acceptedClient(t)
	ctx := context.Background()
	for i := range queued {
		c.out <- newMessage(fmt.Appendf(nil, `{"n":%d,"pad":%q}`, i, strings.Repeat("x", i*7%900)))
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
	if err := c.write(newMessage([]byte(`"alone"`))); err != nil {
		t.Fatal(err)
	}
	if n := cc.count() - before; n != 1 {
		t.Fatalf("a message alone took %d writes, want 1", n)
	}
	if _, b, err := peer.Read(ctx); err != nil || string(b) != `"alone"` {
		t.Fatalf("read %q, %v", b, err)
	}
}

// encodeMessage frames what json.Marshal and newMessage framed, byte for
// byte, on each side of the header's length bounds (125/126, 65535/65536).
func TestEncodeMessageAsMarshal(t *testing.T) {
	for _, n := range []int{0, 1, 110, 111, 112, 125, 126, 200, 65519, 65520, 65521, 70000} {
		v := map[string]any{"type": "update", "pad": strings.Repeat("x", n), "html": "<&>"}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want := newMessage(b)
		for _, hint := range []int{0, n, 2 * n} {
			got, err := encodeMessage(v, hint)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.frame, want.frame) || got.head != want.head || !bytes.Equal(got.payload(), b) {
				t.Errorf("%d bytes of padding, hint %d: framed as % x…, want % x…", n, hint, got.frame[:min(12, len(got.frame))], want.frame[:min(12, len(want.frame))])
			}
		}
	}
	if _, err := encodeMessage(map[string]any{"f": func() {}}, 0); err == nil {
		t.Error("a value JSON cannot hold was encoded")
	}
}

// TestDirectWrites: a message with nothing queued before it goes to the
// socket at once from the sender's goroutine, not through the writer's
// queue; once the peer stops reading and the socket's buffers fill, a
// message goes out in part, its rest and the messages after it through
// the writer, and the peer reads them all, whole and in order.
func TestDirectWrites(t *testing.T) {
	c, peer, _ := acceptedClient(t)
	peer.SetReadLimit(1 << 20)
	ctx := context.Background()
	if c.cork.raw == nil {
		t.Fatal("the accepted connection has no socket to write to at once")
	}
	c.deliver(newMessage([]byte(`"first"`)), true)
	if len(c.out) != 0 || c.queued.Load() != 0 {
		t.Fatal("a message alone was queued for the writer")
	}
	if _, b, err := peer.Read(ctx); err != nil || string(b) != `"first"` {
		t.Fatalf("read %q, %v; want \"first\"", b, err)
	}
	wrote := make(chan error, 1)
	go func() { // the writer, as writeLoop runs it
		for {
			select {
			case m := <-c.out:
				if err := c.write(m); err != nil {
					wrote <- err
					return
				}
			case <-c.done:
				wrote <- nil
				return
			}
		}
	}()
	const n = 100 // 6.5 MB: more than the sockets' buffers hold
	payload := func(i int) string { return fmt.Sprintf(`{"n":%d,"pad":%q}`, i, strings.Repeat("x", 64<<10+i)) }
	queuedSome := false
	for i := range n { // the peer reads none of them yet
		c.deliver(newMessage([]byte(payload(i))), true)
		queuedSome = queuedSome || c.queued.Load() > 0
	}
	if !queuedSome {
		t.Fatal("the socket took 6.5 MB unread at once: the test shows nothing")
	}
	for i := range n {
		_, b, err := peer.Read(ctx)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if string(b) != payload(i) {
			t.Fatalf("message %d is %.20s… of %d bytes, want %.20s… of %d", i, b, len(b), payload(i), len(payload(i)))
		}
	}
	close(c.done)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if c.cork.tail != nil || c.queued.Load() != 0 {
		t.Fatalf("left over: a tail of %d bytes, %d messages queued", len(c.cork.tail), c.queued.Load())
	}
}

// TestDirectWriteNeverWaits: while the connection is taken by a write that
// waits (a slow reader's: the writer's, or the library's ping), a message
// to send at once is queued for the writer instead; the sender, which
// holds its table, never waits for the reader. (It waited before: a hang.)
func TestDirectWriteNeverWaits(t *testing.T) {
	c, peer, _ := acceptedClient(t)
	c.cork.mu.Lock() // a write under way that waits
	c.deliver(newMessage([]byte(`"queued"`)), true)
	c.cork.mu.Unlock()
	if len(c.out) != 1 || c.queued.Load() != 1 {
		t.Fatalf("%d messages queued (count %d), want the one", len(c.out), c.queued.Load())
	}
	c.deliver(newMessage([]byte(`"after"`)), true) // behind the queued one
	if len(c.out) != 2 {
		t.Fatal("a message passed one queued before it")
	}
	for len(c.out) > 0 {
		if err := c.write(<-c.out); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{`"queued"`, `"after"`} {
		if _, b, err := peer.Read(context.Background()); err != nil || string(b) != want {
			t.Fatalf("read %q, %v; want %s", b, err, want)
		}
	}
}

// BenchmarkDeliver: an update of 1 KB to a player on loopback, the peer
// reading in the background: through the client's writer (woken for each
// message, as every message went before) and written at once by the
// sender (as a player's update goes now). With -benchmem; ns/op includes
// the write to the socket, whose receiving end runs on the same cores.
//
//	go test ./server -run '^$' -bench Deliver -benchmem
func BenchmarkDeliver(b *testing.B) {
	for _, now := range []bool{false, true} {
		name := "writer"
		if now {
			name = "direct"
		}
		b.Run(name, func(b *testing.B) {
			c, peer, _ := acceptedClient(b)
			peer.SetReadLimit(1 << 20)
			read := make(chan int, 1)
			go func() {
				n := 0
				for {
					if _, _, err := peer.Read(context.Background()); err != nil {
						read <- n
						return
					}
					n++
				}
			}()
			go func() { // the writer, as writeLoop runs it
				for {
					select {
					case m := <-c.out:
						if err := c.write(m); err != nil {
							return
						}
					case <-c.done:
						return
					}
				}
			}()
			m := newMessage([]byte(`{"type":"update","pad":"` + strings.Repeat("x", 1000) + `"}`))
			b.ResetTimer()
			for range b.N {
				for len(c.out) > sendBuffer/2 { // the peer behind: let it catch up
					runtime.Gosched()
				}
				c.deliver(m, now)
			}
			b.StopTimer()
			close(c.done)
		})
	}
}
