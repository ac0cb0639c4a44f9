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
	clients := func() string {
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
	last := -1
	// Look at the metrics now and then (this reader keeps up), once the
	// reader has a message: before that its connection may not be counted
	// yet, and "1" would be the slow client.
	for i := 0; i%50 != 0 || last < 0 || clients() != "1"; i++ {
		m, err := reader.next(ctx)
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
