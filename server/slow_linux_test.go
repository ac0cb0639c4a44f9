//go:build linux

package server_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// smallWindow returns an HTTP client whose connections have a 4 KiB
// receive buffer, so that a client that stops reading soon stops the
// server's writes too.
func smallWindow() *http.Client {
	d := &net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// connectedClients reads the server's count of connected clients from its
// metrics.
func connectedClients(t *testing.T, ts *testServer) string {
	t.Helper()
	resp, err := http.Get(ts.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "farkle_connected_clients "); ok {
			return v
		}
	}
	return ""
}

// TestSlowClientIsDropped: a watcher that never reads is disconnected
// rather than holding up the table; a watcher that reads sees every
// version in order meanwhile.
func TestSlowClientIsDropped(t *testing.T) {
	t.Parallel()
	ts := start(t, "", server.Options{BotDelay: time.Millisecond, MaxTurns: -1}) // fast, but a reader keeps up; a game that does not end
	ctx := ctxT(t, 2*time.Minute)
	c := host(t, ts)
	long := map[string]any{"base": "classic", "game": map[string]any{"target": 1000000}}
	tb, err := c.CreateTable(ctx, long, map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	slow := wsclient.New(ts.URL)
	slow.HTTP = smallWindow()
	if err := slow.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	reader := &player{Client: wsclient.New(ts.URL), Seat: -1}
	if err := reader.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	clients := func() string { return connectedClients(t, ts) }
	last := -1
	// Look at the metrics now and then (this reader keeps up), once the
	// reader has a message: before that its connection may not be counted
	// yet, and "1" would be the slow client.
	for i := 0; i%50 != 0 || last < 0 || clients() != "1"; i++ {
		m, err := reader.Read(ctx)
		if err != nil {
			t.Fatalf("the reading watcher: %v (after version %d)", err, last)
		}
		if m.State != nil {
			if last >= 0 && m.State.Version != last+1 {
				t.Fatalf("version %d after %d", m.State.Version, last)
			}
			last = m.State.Version
		}
	}
	// The slow client, reading at last, finds versions in order and then
	// the connection closed for being too slow.
	prev := -1
	for {
		m, err := slow.Next(ctx)
		if err != nil {
			break // closed under it, without a handshake it would not have read
		}
		if m.State != nil {
			if prev >= 0 && m.State.Version != prev+1 {
				t.Fatalf("the slow client saw version %d after %d", m.State.Version, prev)
			}
			prev = m.State.Version
		}
	}
	if prev >= last {
		t.Fatalf("the slow client got as far (%d) as the reader (%d)", prev, last)
	}
	t.Logf("the slow client was dropped at version %d; the reader went on to %d", prev, last)
}

// TestStalledWatcherDoesNotHoldThePlayer: a watcher that stops reading
// (its socket's window full, its queue full) never holds up the player of
// the table: every one of the player's actions is answered, as many as
// fill the watcher's queue and window, and the stalled watcher is dropped
// without having been sent the last of them.
func TestStalledWatcherDoesNotHoldThePlayer(t *testing.T) {
	t.Parallel()
	// No bound on the player's messages a second: on a quick server the
	// player acts faster than the tests' 1,000 a second while it fills
	// the watcher's queue.
	ts := start(t, "", server.Options{MaxTurns: -1, ActionRate: -1, PlayerMessageRate: -1})
	ctx := ctxT(t, 2*time.Minute)
	p := newPlayer(t, ts, "Ann")
	tb, err := p.CreateTable(ctx, longSolo, map[string]string{"type": "me"})
	if err != nil {
		t.Fatal(err)
	}
	stalled := wsclient.New(ts.URL)
	stalled.HTTP = smallWindow()
	if err := stalled.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	if _, err := stalled.Next(ctx); err != nil { // its welcome: it is counted; from now on it reads nothing
		t.Fatal(err)
	}
	if err := p.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Read(ctx); err != nil {
		t.Fatal(err)
	}
	// The player plays on until the stalled watcher is dropped (the
	// player's own connection is then the only one), which must come
	// well before the bound: each action is answered meanwhile.
	const most = 20000
	for i := 0; i%50 != 0 || connectedClients(t, ts) != "1"; i++ {
		if i == most {
			t.Fatalf("the stalled watcher is still connected after %d actions", most)
		}
		if _, err := step(p, ctx); err != nil {
			t.Fatalf("the player, at version %d with a stalled watcher: %v", p.Last.Version, err)
		}
	}
	last := -1
	for {
		m, err := stalled.Next(ctx)
		if err != nil {
			break
		}
		if m.State != nil {
			last = m.State.Version
		}
	}
	if last >= p.Last.Version {
		t.Fatalf("the stalled watcher was sent every version (%d of %d): it was not dropped", last, p.Last.Version)
	}
	t.Logf("the stalled watcher was dropped after version %d; the player went on to %d", last, p.Last.Version)
}
