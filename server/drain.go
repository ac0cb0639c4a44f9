package server

import (
	"context"
	"encoding/json"
	"time"

	"github.com/coder/websocket"
)

// A node of a cluster stopping for an upgrade (a rolling restart) drains
// before it closes: it takes no lease from then on, hands the leases it
// holds to the other nodes at once (rather than letting them run out, which
// would stall its tables' bots and clocks for the lease time), and tells
// its WebSocket clients to connect again, which the reverse proxy in front
// of the nodes sends to another node. Its tables go on there.

// handoffer is a store.Cluster that can give leases up and tell the other
// nodes at once (store/postgres): they take the tables without waiting for
// their next look for tables without a node.
type handoffer interface {
	Handoff(ctx context.Context, tables []string) error
}

// reconnectMsg tells a client that this node is going away: connect again
// to the same URL (another node answers).
type reconnectMsg struct {
	Type   string `json:"type"` // "reconnect"
	Reason string `json:"reason"`
}

// reconnectReason is the close reason and the message's reason.
const reconnectReason = "this node is restarting: connect again"

// drainWrite bounds the write of the reconnect message to one client.
const drainWrite = time.Second

// Drain prepares the node to stop: it takes no lease from now on, gives
// up the leases it holds (telling the other nodes, where the store can),
// and tells every WebSocket client to reconnect, then closes its
// connection with 1012 (service restart). The node still answers requests
// until Close; call Drain once its listener no longer accepts connections,
// so that the clients reconnect elsewhere. Calling it again does nothing.
func (s *Server) Drain(ctx context.Context) {
	if !s.draining.CompareAndSwap(false, true) {
		return
	}
	start := time.Now()
	var leased []string
	for _, t := range s.inMemory() {
		t.mu.Lock() // waits for an action being committed
		if t.leased {
			leased = append(leased, t.id)
			t.setLeased(false) // its bots and clock stop here
		}
		t.mu.Unlock()
	}
	leased = append(leased, s.dropAsleep()...) // idle.go
	if h, ok := s.cluster.(handoffer); ok && len(leased) > 0 {
		hctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := h.Handoff(hctx, leased)
		cancel()
		if err != nil {
			s.log.Warn("cannot hand the leases off: another node takes the tables when they expire", "event", "lease_moved", "err", err)
		}
	} else {
		s.releaseAll(leased)
	}
	for _, id := range leased {
		s.log.Info("lease handed off", "event", "lease_moved", "table", id)
	}
	s.mu.Lock()
	clients := make([]*client, 0, len(s.clients))
	for c := range s.clients {
		clients = append(clients, c)
	}
	s.mu.Unlock()
	b, _ := json.Marshal(reconnectMsg{Type: "reconnect", Reason: reconnectReason})
	for _, c := range clients {
		c.closeWith(b)
	}
	s.log.Info("drained", "event", "shutdown", "leases", len(leased), "clients", len(clients), "took", time.Since(start).Round(time.Millisecond))
}

// closeWith ends the connection once, as close does, after writing b
// straight to it (not through the queue, which closing abandons).
func (c *client) closeWith(b []byte) {
	c.once.Do(func() {
		close(c.done)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), drainWrite)
			defer cancel()
			// Through the library, in one write to the network (it is
			// small), so that a frame the writer sends itself meanwhile
			// (wsframe.go) never lands inside it.
			if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
				_ = c.conn.CloseNow()
				return
			}
			if c.cork != nil {
				c.cork.end() // no message after the close frame
			}
			_ = c.conn.Close(websocket.StatusServiceRestart, reconnectReason)
		}()
	})
}
